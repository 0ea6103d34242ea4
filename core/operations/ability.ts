// ability: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const abilityOps: AnyOperation[] = [
  notYet('equipPlayerAbility', 'POST', '/player/ability/equip', 'ability', 'Sets a fruit item to a slot of an ability tree.'),
  notYet('releasePlayerAbility', 'POST', '/player/ability/release', 'ability', 'Unlocks the ability tree of a character using a specified item.'),
  notYet('releaseSlotPlayerAbility', 'POST', '/player/ability/release_slot', 'ability', 'Unlocks a slot of an ability tree; items used implicitly.'),
  notYet('upgradeSpherePlayerAbility', 'POST', '/player/ability/upgrade_sphere', 'ability', 'Upgrades the fruit item of a slot using items specified by the client.'),
];
