// weapon: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const weaponOps: AnyOperation[] = [
  notYet('addPlayerWeaponLimit', 'POST', '/player/weapon/limit/add', 'weapon', 'Adds a weapon storage slot using gems.'),
  notYet('evolutionPlayerWeapon', 'POST', '/player/weapon/evolution', 'weapon', 'Evolves the character-specific weapon; items used implicitly.'),
  notYet('makePlayerWeapon', 'POST', '/player/weapon/make', 'weapon', 'Makes a new weapon; items used implicitly.'),
  notYet('receivePlayerWeapon', 'POST', '/player/weapon/receive', 'weapon', 'Receives a new weapon when the specific character is at level 100.'),
  notYet('salePlayerWeapon', 'POST', '/player/weapon/sale', 'weapon', 'Sells a weapon for coins.'),
  notYet('upgradePlayerWeapon', 'POST', '/player/weapon/upgrade', 'weapon', 'Levels a weapon up using specific items.'),
];
