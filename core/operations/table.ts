// The single operations table: the one place that lists what the service can do.
// The router, the OpenAPI document and the surface tests are all derived from it.
import type * as t from 'io-ts';
import { erased, run, type AnyOperation, type Env, type Executed, type Operation } from '../operation.js';
import type { Rng } from '../rng.js';
import type { PlayerState } from '../state.js';
import type { Result } from '../shared/result.js';
import type { ErrorName } from '../errors.js';
import { gachaOps } from './gacha.js';
import { presentOps } from './present.js';
import { tutorialOps } from './tutorial.js';
import { playerOps } from './player.js';
import { privacyOps } from './privacy.js';
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
import { questOps } from './quest.js';
import { missionOps } from './mission.js';
import { staminaOps } from './stamina.js';
import { appOps } from './app.js';
import { operatorOps } from './operator.js';
import { noticeOps } from './notice.js';

/** Every entry with its types: the typed client and typed callers read them from here. */
export const TYPED_OPERATIONS = [
  ...playerOps,
  ...privacyOps,
  ...gachaOps,
  ...presentOps,
  ...tutorialOps,
  ...characterOps,
  ...weaponOps,
  ...trainingOps,
  ...abilityOps,
  ...itemOps,
  ...townFacilityOps,
  ...townOps,
  ...fieldPartyOps,
  ...roomOps,
  ...roomObjectOps,
  ...contentRoomOps,
  ...friendOps,
  ...battlePartyOps,
  ...achievementOps,
  ...questLogOps,
  ...chestOps,
  ...offerOps,
  // The endpoints the original game's clients call first (issue 21).
  ...appOps,
  ...questOps,
  ...missionOps,
  ...staminaOps,
  // The operator's notices to every player (issue 32).
  ...noticeOps,
] as const;

/** The same entries, types erased: what the router, the OpenAPI document and the service walk. */
export const OPERATIONS: ReadonlyArray<AnyOperation> = TYPED_OPERATIONS.map((op) =>
  erased<unknown, unknown, ErrorName, string>(op as unknown as Operation<unknown, unknown, ErrorName, string>),
);

export type TypedOperation = (typeof TYPED_OPERATIONS)[number];
export type OperationName = TypedOperation['name'];
/** The entry of a name, with its types. */
export type OperationNamed<N extends OperationName> = Extract<TypedOperation, { readonly name: N }>;
/** What an operation takes (decoded) and what it answers (its own part). */
export type RequestOf<N extends OperationName> = t.TypeOf<OperationNamed<N>['request']>;
export type ResponseOf<N extends OperationName> = t.TypeOf<OperationNamed<N>['response']>;

export const operationByName = (name: string): AnyOperation | undefined => OPERATIONS.find((o) => o.name === name);

/** The operator's entries (the admin API): run and logged like the others, not served under /api. */
export const OPERATOR_OPERATIONS: ReadonlyArray<AnyOperation> = operatorOps.map((op) =>
  erased<unknown, unknown, ErrorName, string>(op as unknown as Operation<unknown, unknown, ErrorName, string>),
);

/** Any entry by name, the operator's included: what the service and a replay run. */
export const entryByName = (name: string): AnyOperation | undefined =>
  operationByName(name) ?? OPERATOR_OPERATIONS.find((o) => o.name === name);

/** The entry of a known name, with its types. */
export const operationNamed = <N extends OperationName>(name: N): OperationNamed<N> =>
  TYPED_OPERATIONS.find((o) => o.name === name) as OperationNamed<N>;

/**
 * Runs an operation by its name on a raw request (decoded by its codec), its answer
 * typed by the operation's codecs: what library users, the simulator and tests call.
 */
export const runNamed = <N extends OperationName>(
  name: N,
  state: PlayerState,
  rawRequest: unknown,
  rng: Rng,
  now: number,
  env: Env,
): Result<Executed<ResponseOf<N>>> =>
  // The entry of N answers ResponseOf<N>; the compiler cannot follow Extract through the generic N.
  run(
    operationNamed(name) as unknown as Operation<unknown, ResponseOf<N>, ErrorName>,
    state,
    rawRequest,
    rng,
    now,
    env,
  );
