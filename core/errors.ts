// The closed set of domain errors. Each has a numeric result code (the original
// service's numbering, extended in its scheme) and the data its message needs.
// The HTTP status of each lives in adapters/http/status.ts; the core knows no HTTP.

/** Data carried by each error, by name. */
export interface ErrorData {
  OUTDATED: { version: string; minVersion: string };
  OUTDATED_AB_VERSION: { abVer: number; minAbVer: number };
  /** The game is closed for maintenance until `until` (ms), with the operator's message. */
  MAINTENANCE: { message: string; until: number };
  INVALID_REQUEST_HASH: Record<string, never>;
  INVALID_PARAMETERS: { field: string; reason: string };
  INSUFFICIENT_PARAMETERS: { field: string };
  INVALID_JSON_SCHEMA: { reason: string };
  DB_ERROR: { reason: string };
  NG_WORD: { field: string };
  NOT_FOUND: { entity: string; id: number | string };
  BODY_TOO_LARGE: { limit: number };
  IDEMPOTENCY_KEY_REUSED: Record<string, never>;
  REQUEST_IN_PROGRESS: Record<string, never>;
  RATE_LIMITED: { retryAfterSeconds: number };
  /** An operator whose role does not allow the action (the admin API). */
  FORBIDDEN: { role: string; needs: string; roles: string };
  ANSWER_WITHHELD: { fields: string };
  PRESENT_LIMIT: { max: number };
  PLAYER_ALREADY_EXISTS: Record<string, never>;
  PLAYER_NOT_FOUND: Record<string, never>;
  PLAYER_SESSION_EXPIRED: Record<string, never>;
  /** Suspended by the operator until `until` (ms), or indefinitely (null). */
  PLAYER_SUSPENDED: { until: number | null };
  INVALID_MOVE_PARAMETERS: { reason: string };
  PLAYER_MOVED: Record<string, never>;
  WEAPON_UPGRADE_LIMIT: { max: number };
  CHARACTER_UPGRADE_LIMIT: { max: number };
  FACILITY_EXT_LIMIT: { max: number };
  SUPPORT_CHAR_LIMIT: { max: number };
  SUPPORT_LIMIT: { max: number };
  ROOM_OBJECT_EXT_LIMIT: { max: number };
  WEAPON_EXT_LIMIT: { max: number };
  WEAPON_LIMIT: { max: number };
  FACILITY_LIMIT: { max: number };
  ROOM_OBJECT_LIMIT: { max: number };
  CHARACTER_LIMIT: { max: number };
  ITEM_LIMIT: { itemId: number; max: number };
  TOWN_LIMIT: { max: number };
  ROOM_LIMIT: { reason: string };
  LIMIT_BREAK_LIMIT: { max: number };
  GACHA_DRAW_LIMIT: { gachaId: number; reason: string };
  FRIEND_LIMIT: { max: number };
  CURRENCY_LIMIT: { currency: string; max: number };
  TRADE_LIMIT: { recipeId: number; max: number };
  GACHA_STEP_DRAW_LIMIT: { gachaId: number };
  GACHA_NOTHING_PENDING: { gachaId: number };
  TIMER_RUNNING: { entity: string; completesAt: number };
  STATE_CONFLICT: { reason: string };
  ALREADY_OWN_CHARACTER: { characterId: number };
  GOLD_IS_SHORT: { need: number; have: number };
  ITEM_IS_SHORT: { itemId: number; need: number; have: number };
  GACHA_POINT_IS_SHORT: { gachaId: number; need: number; have: number };
  UNLIMITED_GEM_IS_SHORT: { need: number; have: number };
  GEM_IS_SHORT: { need: number; have: number };
  KIRARA_IS_SHORT: { need: number; have: number };
  STAMINA_IS_SHORT: { need: number; have: number };
  QUEST_OUT_OF_PERIOD: { questId: number };
  GACHA_OUT_OF_PERIOD: { gachaId: number };
  TRADE_OUT_OF_PERIOD: { recipeId: number };
  BUY_OUT_OF_PERIOD: { id: number };
  QUEST_RETRY_LIMIT: { max: number };
  QUEST_ORDER_LIMIT: { reason: string };
  CHEST_OUT_OF_PERIOD: { chestId: number };
  MISSION_OUT_OF_PERIOD: { managedMissionId: number };
  NOT_YET_FRIEND: { playerId: number };
  ALREADY_FRIEND: { playerId: number };
  ALREADY_COMPLETE_MISSION: { managedMissionId: number };
  MISSION_NOT_ACHIEVED: { managedMissionId: number; rate: number; rateMax: number };
  UNKNOWN_ERROR: Record<string, never>;
}

export type ErrorName = keyof ErrorData;

/** A domain error: its name plus its data. The union is closed over ErrorName. */
export type GameError = { [K in ErrorName]: { readonly code: K } & Readonly<ErrorData[K]> }[ErrorName];
export type ErrorOf<K extends ErrorName> = Extract<GameError, { code: K }>;

interface CodeInfo<K extends ErrorName> {
  readonly resultCode: number;
  readonly message: (e: ErrorOf<K>) => string;
}

/** Result code and message of every error. One exhaustive table. */
export const RESULT_CODES: { readonly [K in ErrorName]: CodeInfo<K> } = {
  OUTDATED: {
    resultCode: 1,
    message: (e) => `App version ${e.version} is out of date: update to ${e.minVersion} or later.`,
  },
  OUTDATED_AB_VERSION: {
    resultCode: 30,
    message: (e) => `Asset version ${e.abVer} is out of date: download version ${e.minAbVer} or later.`,
  },
  MAINTENANCE: {
    resultCode: 10,
    message: (e) => e.message || 'The game is closed for maintenance; please come back later.',
  },
  INVALID_REQUEST_HASH: { resultCode: 101, message: () => 'The request hash does not match the request.' },
  INVALID_PARAMETERS: { resultCode: 102, message: (e) => `Invalid parameter ${e.field}: ${e.reason}.` },
  INSUFFICIENT_PARAMETERS: { resultCode: 103, message: (e) => `Missing parameter ${e.field}.` },
  INVALID_JSON_SCHEMA: { resultCode: 104, message: (e) => `The request body is not valid: ${e.reason}.` },
  DB_ERROR: {
    resultCode: 105,
    message: () => 'The data store could not complete the request; nothing was changed. Try again later.',
  },
  NG_WORD: { resultCode: 106, message: (e) => `${e.field} contains a word that is not allowed.` },
  NOT_FOUND: { resultCode: 107, message: (e) => `No ${e.entity} with id ${e.id}.` },
  BODY_TOO_LARGE: { resultCode: 108, message: (e) => `The request body is larger than ${e.limit} bytes.` },
  IDEMPOTENCY_KEY_REUSED: {
    resultCode: 109,
    message: () => 'This Idempotency-Key was already used with a different request.',
  },
  REQUEST_IN_PROGRESS: {
    resultCode: 110,
    message: () => 'A request with this Idempotency-Key is still being processed.',
  },
  RATE_LIMITED: { resultCode: 111, message: (e) => `Too many requests; retry after ${e.retryAfterSeconds} seconds.` },
  FORBIDDEN: {
    resultCode: 113,
    message: (e) => `Your role (${e.role}) may not do this: it needs the ${e.needs} permission (${e.roles}).`,
  },
  PRESENT_LIMIT: {
    resultCode: 313,
    message: (e) => `The present box is full (at most ${e.max} presents): receive some first; nothing was changed.`,
  },
  ANSWER_WITHHELD: {
    resultCode: 112,
    message: (e) =>
      `The request with this Idempotency-Key was already done, once; its answer held a secret (${e.fields}), which is never sent twice.`,
  },
  PLAYER_ALREADY_EXISTS: { resultCode: 201, message: () => 'A player is already bound to this uuid.' },
  PLAYER_NOT_FOUND: { resultCode: 202, message: () => 'No such player, or the access token does not match.' },
  PLAYER_SESSION_EXPIRED: { resultCode: 203, message: () => 'No valid session: log in again.' },
  PLAYER_SUSPENDED: {
    resultCode: 204,
    message: (e) => (e.until === null ? 'This player is suspended.' : 'This player is suspended for now.'),
  },
  INVALID_MOVE_PARAMETERS: {
    resultCode: 210,
    message: (e) => `The transfer code or password is not valid: ${e.reason}.`,
  },
  PLAYER_MOVED: { resultCode: 212, message: () => 'This account was transferred to another device.' },
  WEAPON_UPGRADE_LIMIT: { resultCode: 293, message: (e) => `The weapon is already at its maximum level ${e.max}.` },
  CHARACTER_UPGRADE_LIMIT: { resultCode: 294, message: (e) => `The character is already at its level cap ${e.max}.` },
  FACILITY_EXT_LIMIT: { resultCode: 295, message: (e) => `Facility storage is already at its maximum of ${e.max}.` },
  SUPPORT_CHAR_LIMIT: { resultCode: 296, message: (e) => `A support party holds at most ${e.max} characters.` },
  SUPPORT_LIMIT: { resultCode: 297, message: (e) => `At most ${e.max} support parties.` },
  ROOM_OBJECT_EXT_LIMIT: {
    resultCode: 298,
    message: (e) => `Room object storage is already at its maximum of ${e.max}.`,
  },
  WEAPON_EXT_LIMIT: { resultCode: 299, message: (e) => `Weapon storage is already at its maximum of ${e.max}.` },
  WEAPON_LIMIT: { resultCode: 301, message: (e) => `Weapon storage is full (${e.max}).` },
  FACILITY_LIMIT: { resultCode: 302, message: (e) => `Facility storage is full (${e.max}).` },
  ROOM_OBJECT_LIMIT: { resultCode: 303, message: (e) => `Room object storage is full (${e.max}).` },
  CHARACTER_LIMIT: { resultCode: 304, message: (e) => `Character storage is full (${e.max}).` },
  ITEM_LIMIT: { resultCode: 305, message: (e) => `Item ${e.itemId} would pass its maximum of ${e.max}.` },
  TOWN_LIMIT: { resultCode: 306, message: (e) => `The town holds at most ${e.max}.` },
  ROOM_LIMIT: { resultCode: 307, message: (e) => `The room layout is not valid: ${e.reason}.` },
  LIMIT_BREAK_LIMIT: { resultCode: 308, message: (e) => `The character is already limit-broken ${e.max} times.` },
  GACHA_DRAW_LIMIT: { resultCode: 309, message: (e) => `Gacha ${e.gachaId} cannot be drawn: ${e.reason}.` },
  FRIEND_LIMIT: { resultCode: 310, message: (e) => `Friend list or requests are full (${e.max}).` },
  CURRENCY_LIMIT: { resultCode: 311, message: (e) => `${e.currency} would pass its maximum of ${e.max}.` },
  TRADE_LIMIT: { resultCode: 312, message: (e) => `Trade recipe ${e.recipeId} allows at most ${e.max} trades.` },
  GACHA_STEP_DRAW_LIMIT: { resultCode: 314, message: (e) => `Gacha ${e.gachaId}: this step cannot be drawn again.` },
  GACHA_NOTHING_PENDING: { resultCode: 315, message: (e) => `Gacha ${e.gachaId} has no pending draw to fix.` },
  TIMER_RUNNING: { resultCode: 316, message: (e) => `The ${e.entity} is still running.` },
  STATE_CONFLICT: { resultCode: 317, message: (e) => `Not allowed in the current state: ${e.reason}.` },
  ALREADY_OWN_CHARACTER: { resultCode: 331, message: (e) => `Character ${e.characterId} is already owned.` },
  GOLD_IS_SHORT: { resultCode: 441, message: (e) => `Not enough coins: need ${e.need}, have ${e.have}.` },
  ITEM_IS_SHORT: { resultCode: 442, message: (e) => `Not enough of item ${e.itemId}: need ${e.need}, have ${e.have}.` },
  GACHA_POINT_IS_SHORT: {
    resultCode: 442,
    message: (e) => `Not enough gacha points of gacha ${e.gachaId}: need ${e.need}, have ${e.have}.`,
  },
  UNLIMITED_GEM_IS_SHORT: { resultCode: 443, message: (e) => `Not enough paid gems: need ${e.need}, have ${e.have}.` },
  GEM_IS_SHORT: { resultCode: 445, message: (e) => `Not enough gems: need ${e.need}, have ${e.have}.` },
  KIRARA_IS_SHORT: { resultCode: 446, message: (e) => `Not enough town points: need ${e.need}, have ${e.have}.` },
  STAMINA_IS_SHORT: { resultCode: 451, message: (e) => `Not enough stamina: need ${e.need}, have ${e.have}.` },
  QUEST_OUT_OF_PERIOD: { resultCode: 461, message: (e) => `Quest ${e.questId} is not open now.` },
  GACHA_OUT_OF_PERIOD: { resultCode: 462, message: (e) => `Gacha ${e.gachaId} is not open now.` },
  TRADE_OUT_OF_PERIOD: { resultCode: 463, message: (e) => `Trade recipe ${e.recipeId} is not open now.` },
  BUY_OUT_OF_PERIOD: { resultCode: 464, message: (e) => `${e.id} cannot be bought now.` },
  QUEST_RETRY_LIMIT: { resultCode: 465, message: (e) => `The quest was already retried ${e.max} times.` },
  QUEST_ORDER_LIMIT: { resultCode: 466, message: (e) => `The quest cannot be ordered: ${e.reason}.` },
  CHEST_OUT_OF_PERIOD: { resultCode: 467, message: (e) => `Chest ${e.chestId} is not open now.` },
  MISSION_OUT_OF_PERIOD: {
    resultCode: 468,
    message: (e) => `Mission ${e.managedMissionId} is over: its period has ended.`,
  },
  NOT_YET_FRIEND: { resultCode: 501, message: (e) => `Player ${e.playerId} is not a friend.` },
  ALREADY_FRIEND: { resultCode: 502, message: (e) => `Player ${e.playerId} is already a friend.` },
  ALREADY_COMPLETE_MISSION: { resultCode: 510, message: (e) => `Mission ${e.managedMissionId} was already claimed.` },
  MISSION_NOT_ACHIEVED: {
    resultCode: 511,
    message: (e) => `Mission ${e.managedMissionId} is not achieved yet (${e.rate} of ${e.rateMax}).`,
  },
  UNKNOWN_ERROR: { resultCode: 999, message: () => 'An unexpected error occurred.' },
};

export const ERROR_NAMES = Object.keys(RESULT_CODES) as ErrorName[];

export const resultCodeOf = (e: GameError): number => RESULT_CODES[e.code].resultCode;

export const messageOf = (e: GameError): string => (RESULT_CODES[e.code].message as (x: GameError) => string)(e);

/** Builds an error value; the type checks the data against the name. */
export const gameError = <K extends ErrorName>(code: K, data: ErrorData[K]): ErrorOf<K> =>
  ({ code, ...data }) as unknown as ErrorOf<K>;
