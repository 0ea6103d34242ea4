// Every operation's description, in the operations table's order (core/operations/table.ts
// pairs each with its reducer, and a test keeps the two in step): what the typed client
// and anything else that calls the service, not runs it, reads. It imports no reducer.
import type * as t from 'io-ts';
import type { AnyDescription } from './describe.js';
import { playerApi } from './player.js';
import { privacyApi } from './privacy.js';
import { gachaApi } from './gacha.js';
import { presentApi } from './present.js';
import { tutorialApi } from './tutorial.js';
import { characterApi } from './character.js';
import { weaponApi } from './weapon.js';
import { trainingApi } from './training.js';
import { abilityApi } from './ability.js';
import { itemApi } from './item.js';
import { townFacilityApi } from './townFacility.js';
import { townApi } from './town.js';
import { fieldPartyApi } from './fieldParty.js';
import { roomApi } from './room.js';
import { roomObjectApi } from './roomObject.js';
import { contentRoomApi } from './contentRoom.js';
import { friendApi } from './friend.js';
import { battlePartyApi } from './battleParty.js';
import { achievementApi } from './achievement.js';
import { questLogApi } from './questLog.js';
import { chestApi } from './chest.js';
import { offerApi } from './offer.js';
import { appApi } from './app.js';
import { questApi } from './quest.js';
import { missionApi } from './mission.js';
import { staminaApi } from './stamina.js';
import { noticeApi } from './notice.js';

/** Every player-facing description with its types (the operator's are the admin API's). */
export const TYPED_DESCRIPTIONS = [
  ...playerApi,
  ...privacyApi,
  ...gachaApi,
  ...presentApi,
  ...tutorialApi,
  ...characterApi,
  ...weaponApi,
  ...trainingApi,
  ...abilityApi,
  ...itemApi,
  ...townFacilityApi,
  ...townApi,
  ...fieldPartyApi,
  ...roomApi,
  ...roomObjectApi,
  ...contentRoomApi,
  ...friendApi,
  ...battlePartyApi,
  ...achievementApi,
  ...questLogApi,
  ...chestApi,
  ...offerApi,
  // The endpoints the original game's clients call first (issue 21).
  ...appApi,
  ...questApi,
  ...missionApi,
  ...staminaApi,
  // The operator's notices to every player (issue 32).
  ...noticeApi,
] as const;

/** The same, types erased. */
export const DESCRIPTIONS: ReadonlyArray<AnyDescription> =
  TYPED_DESCRIPTIONS as ReadonlyArray<unknown> as ReadonlyArray<AnyDescription>;

export type TypedDescription = (typeof TYPED_DESCRIPTIONS)[number];
export type OperationName = TypedDescription['name'];
/** The description of a name, with its types. */
export type DescriptionNamed<N extends OperationName> = Extract<TypedDescription, { readonly name: N }>;
/** What an operation takes (decoded) and what it answers (its own part). */
export type RequestOf<N extends OperationName> = t.TypeOf<DescriptionNamed<N>['request']>;
export type ResponseOf<N extends OperationName> = t.TypeOf<DescriptionNamed<N>['response']>;
