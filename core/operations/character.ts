// character: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const characterOps: AnyOperation[] = [
  notYet('evolutionPlayerCharacter', 'POST', '/player/character/evolution', 'character', 'Evolves a character; items are used implicitly by the server.'),
  notYet('limitbreakPlayerCharacter', 'POST', '/player/character/limitBreak', 'character', 'Limit-breaks a character using the specified items.'),
  notYet('resetAllViewPlayerCharacter', 'POST', '/player/character/reset_all_view', 'character', 'Resets every character\'s battle view to default.'),
  notYet('setAllPlayerCharacterSupport', 'POST', '/player/character/support/set_all', 'character', 'Sets all support parties used in the friend feature.'),
  notYet('setNamePlayerCharacterSupport', 'POST', '/player/character/support/set_name', 'character', 'Sets the name of a specified support party.'),
  notYet('setShownPlayerCharacter', 'POST', '/player/character/set_shown', 'character', 'Marks a character as shown; its shown field becomes 1.'),
  notYet('setViewPlayerCharacter', 'POST', '/player/character/set_view', 'character', 'Sets a character\'s battle view (evolved or before evolution).'),
  notYet('upgradePlayerCharacter', 'POST', '/player/character/upgrade', 'character', 'Raises a character\'s level using specified items.'),
];
