// The single operations table: the one place that lists what the service can do.
// The router, the OpenAPI document and the surface tests are all derived from it.
import type { AnyOperation } from '../operation.js';
import { gachaOps } from './gacha.js';
import { presentOps } from './present.js';
import { tutorialOps } from './tutorial.js';
import { playerOps } from './player.js';
import { characterOps } from './character.js';
import { weaponOps } from './weapon.js';
import { trainingOps } from './training.js';
import { abilityOps } from './ability.js';
import { itemOps } from './item.js';
import { townFacilityOps } from './townFacility.js';
import { townOps } from './town.js';
import { fieldPartyOps } from './fieldParty.js';
import { roomOps } from './room.js';
import { roomObjectOps } from './roomObject.js';
import { contentRoomOps } from './contentRoom.js';
import { friendOps } from './friend.js';
import { battlePartyOps } from './battleParty.js';
import { achievementOps } from './achievement.js';
import { questLogOps } from './questLog.js';
import { chestOps } from './chest.js';
import { offerOps } from './offer.js';

export const OPERATIONS: ReadonlyArray<AnyOperation> = [
  ...playerOps, ...gachaOps, ...presentOps, ...tutorialOps,
  ...characterOps, ...weaponOps, ...trainingOps, ...abilityOps, ...itemOps, ...townFacilityOps, ...townOps, ...fieldPartyOps, ...roomOps, ...roomObjectOps, ...contentRoomOps, ...friendOps, ...battlePartyOps, ...achievementOps, ...questLogOps, ...chestOps, ...offerOps,
];

/** Whether an entry has its rules built (account operations are served by the account handlers). */
export const isImplemented = (op: AnyOperation): boolean => op.reduce !== null || op.access === 'account';

export const operationByName = (name: string): AnyOperation | undefined => OPERATIONS.find((o) => o.name === name);
