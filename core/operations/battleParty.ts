// battleParty: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const battlePartyOps: AnyOperation[] = [
  notYet('getAllPlayerBattleParty', 'GET', '/player/battle_party/get_all', 'battleParty', 'All 15 battle parties used in quests.'),
  notYet('setAllPlayerBattleParty', 'POST', '/player/battle_party/set_all', 'battleParty', 'Sets all 15 battle parties.'),
  notYet('setNamePlayerBattleParty', 'POST', '/player/battle_party/set_name', 'battleParty', 'Sets the name of a specified battle party.'),
];
