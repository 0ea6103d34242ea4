// townFacility: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const townFacilityOps: AnyOperation[] = [
  notYet('addPlayerTownFacilityLimit', 'POST', '/player/town_facility/limit/add', 'townFacility', 'Adds a facility storage slot using gems.'),
  notYet('buyAllPlayerTownFacility', 'POST', '/player/town_facility/buy_all', 'townFacility', 'Buys a new facility using town points and coins.'),
  notYet('gemLevelUpPlayerTownFacility', 'POST', '/player/town_facility/gem_level_up', 'townFacility', 'Levels a facility up instantly using gems.'),
  notYet('itemUpPlayerTownFacility', 'POST', '/player/town_facility/item_up', 'townFacility', 'Collects coins or materials from a facility.'),
  notYet('levelUpPlayerTownFacility', 'POST', '/player/town_facility/level_up', 'townFacility', 'Starts levelling a facility up (takes time).'),
  notYet('openUpPlayerTownFacility', 'POST', '/player/town_facility/open_up', 'townFacility', 'Opens a facility and removes its cover.'),
  notYet('salePlayerTownFacility', 'POST', '/player/town_facility/sale', 'townFacility', 'Sells a facility for coins.'),
  notYet('setAllPlayerTownFacilityBuildPoint', 'POST', '/player/town_facility/build_point/set_all', 'townFacility', 'Places facilities on the town\'s build points.'),
];
