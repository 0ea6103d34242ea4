// The operator API's operations, as the router serves them and the OpenAPI document
// shows them: each path, its parameters, request and answer codecs and its errors.
// The router is admin.ts; the answers of the gachas, health and master data are
// built in admin-gachas.ts and admin-health.ts.
import * as t from 'io-ts';
import type { ErrorName } from '../../core/errors.js';
import { DisplayText, PosInt } from '../../core/codecs.js';
import { Grant } from '../../core/master/common.js';
import { PlayerState } from '../../core/state.js';
import { entryByName } from '../../core/operations/table.js';
import type { AnyOperation } from '../../core/operation.js';
import { AdminGachaResponse, AdminGachasResponse } from './admin-gachas.js';
import { AdminHealthResponse, AdminMasterResponse } from './admin-health.js';
import {
  CancelScheduleResponse,
  PREVIEW_LIMITS,
  PreviewMaster,
  PreviewMasterResponse,
  PublishMaster,
  PublishMasterResponse,
  ScheduleEntryView,
  ScheduleId,
  ScheduleMaster,
} from './admin-master-codecs.js';
import { PLAYER_DATA_OPERATIONS } from './admin-player-data-ops.js';
import { LIST_MAX, PRESENT_OPERATIONS } from './admin-presents.js';

import type { AdminOperation } from './admin-operation.js';
import { OperatorTime, TIME_FORMS } from './admin-time.js';
import { LIVEOPS_OPERATIONS } from './admin-liveops-codecs.js';
import { OPERATOR_OPERATIONS } from './admin-operators-codecs.js';

export { parseOperatorTime, TIME_FORMS } from './admin-time.js';
export { LIST_MAX } from './admin-presents.js';

export const SendPresents = t.exact(
  t.intersection([
    // Shown to players: DisplayText (no control or format characters, NFC, trimmed; the message may hold line feeds).
    t.type({ grant: Grant, title: DisplayText(1, 64), message: DisplayText(0, 1000, { multiline: true }) }),
    t.partial({
      playerId: PosInt,
      playerIds: t.array(PosInt),
      all: t.literal(true),
      deadline: t.union([OperatorTime, t.null]),
    }),
  ]),
  'AdminSendPresentsRequest',
);
const SessionView = t.type(
  {
    /** The session's key: the hash of its id (the id itself is never stored). */
    key: t.string,
    createdAt: t.string,
    lastSeenAt: t.string,
    /** live; expired (unused longer than SESSION_IDLE_SECONDS); voided (by an account move). Expired and voided ones answer 203. */
    status: t.keyof({ live: null, expired: null, voided: null }),
  },
  'AdminSessionView',
);
const SessionsResponse = t.type({ sessions: t.array(SessionView) }, 'AdminSessionsResponse');
export const EndSessions = t.exact(
  t.partial({ keys: t.array(t.string), all: t.literal(true) }),
  'AdminEndSessionsRequest',
);
const EndSessionsResponse = t.type({ ended: t.number }, 'AdminEndSessionsResponse');
/** What the routes below answer (beside the envelope); the OpenAPI document shows these. */
const SendPresentsResponse = t.type(
  {
    sent: t.number,
    /** The send's id: POST /admin/presents/recall takes back its unreceived presents. */
    sendId: t.number,
  },
  'AdminSendPresentsResponse',
);
const ReadPlayerResponse = t.type({ state: PlayerState }, 'AdminReadPlayerResponse');
const PlayerSummary = t.type(
  {
    playerId: t.number,
    uuid: t.string,
    myCode: t.string,
    name: t.string,
    level: t.number,
    createdAt: t.string,
    lastLoginAt: t.string,
  },
  'AdminPlayerSummary',
);
const FindPlayersResponse = t.type({ players: t.array(PlayerSummary) }, 'AdminFindPlayersResponse');
/** The search keys of GET /admin/players: exactly one is given. */
export const FIND_KEYS = ['playerId', 'uuid', 'myCode', 'name'] as const;
/** At most this many players are listed by name (names are not unique). */
export const FIND_LIMIT = 100;

export type { AdminOperation } from './admin-operation.js';

/** The draw history reducer the game serves at /api/player/gacha/history, run by the operator on any player. */
export const HISTORY = entryByName('getHistoryPlayerGacha') as AnyOperation;
const READ_ERRORS: ReadonlyArray<ErrorName> = ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'];

export const ADMIN_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminDeliverPresents',
    needs: 'support',
    method: 'POST',
    path: '/admin/presents',
    summary: 'Send a present to one player or to every player',
    description: `Puts the grant in the gift box of \`playerId\`, of each of \`playerIds\` (up to ${LIST_MAX}), or of every player with \`all: true\` (exactly one of the three). \`deadline\` is ${TIME_FORMS}, in the future; null or absent for none. Answers how many players received it (with \`playerIds\` or \`all\`, a player not found or whose present box is full is skipped: GET /admin/presents/reach tells how many it reaches first). An unknown \`playerId\` is 202 (404, "No such player"); one whose box is full (master data presents.boxMax) is 313. Logged (admin.action).`,
    request: SendPresents,
    response: SendPresentsResponse,
    writes: true,
    errors: [
      'INVALID_PARAMETERS',
      'INSUFFICIENT_PARAMETERS',
      'BODY_TOO_LARGE',
      'NOT_FOUND',
      'PLAYER_NOT_FOUND',
      'PRESENT_LIMIT',
      'STATE_CONFLICT',
      'DB_ERROR',
      'UNKNOWN_ERROR',
    ],
  },
  ...PRESENT_OPERATIONS,
  {
    name: 'adminFindPlayers',
    needs: 'read',
    method: 'GET',
    path: '/admin/players',
    summary: 'Find players by uuid, friend code or name',
    description: `Exactly one of \`uuid\` (the device's), \`myCode\` (the friend code) or \`name\` (exact, case-sensitive; up to ${FIND_LIMIT} players, by id; on the JSON-file store a scan of every player, about a second per 30,000). Answers each player found with its id and times in the wire's format; none found is an empty list.`,
    queryParameters: {
      playerId: { codec: PosInt, description: "The player's id." },
      uuid: { codec: t.string, description: 'The uuid the player signed up (or moved) with.' },
      myCode: { codec: t.string, description: "The player's friend code." },
      name: { codec: t.string, description: "The player's name, exactly." },
    },
    response: FindPlayersResponse,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminReadPlayer',
    needs: 'read',
    method: 'GET',
    path: '/admin/players/:playerId',
    summary: "Read a player's whole stored state",
    description:
      'The state as stored (not the client\'s view): times in milliseconds since the epoch, the account with its hashes. An unknown id is 202 (404, "No such player").',
    pathParameters: { playerId: PosInt },
    response: ReadPlayerResponse,
    errors: READ_ERRORS,
  },
  {
    name: 'adminPlayerDraws',
    needs: 'read',
    method: 'GET',
    path: '/admin/players/:playerId/draws',
    summary: "A player's draw history, by gacha and date",
    description:
      'What GET /api/player/gacha/history answers the player, newest first, in pages: `gachaId`, `from` and `to` (game-local times, as answers give them; from inclusive, to exclusive), `page` and `pageSize` (at most 100). An unknown id is 202 (404).',
    pathParameters: { playerId: PosInt },
    queryParameters: {
      gachaId: { codec: PosInt, description: 'Draws of this gacha only.' },
      from: { codec: t.string, description: 'Draws at or after this game-local time (2026-12-31T23:59:59).' },
      to: { codec: t.string, description: 'Draws before this game-local time.' },
      page: { codec: PosInt, description: 'The page, from 1.' },
      pageSize: { codec: PosInt, description: 'Draws a page: 20 unless given, at most 100.' },
    },
    response: HISTORY.response,
    errors: READ_ERRORS,
  },
  {
    name: 'adminPlayerSessions',
    needs: 'read',
    method: 'GET',
    path: '/admin/players/:playerId/sessions',
    summary: "A player's sessions",
    description:
      'Every session the storage holds for the player, oldest first: its key (the hash of its id), when it was made and last used, and whether it is live, expired (unused longer than SESSION_IDLE_SECONDS) or voided (by an account move). An unknown id is 202 (404).',
    pathParameters: { playerId: PosInt },
    response: SessionsResponse,
    errors: READ_ERRORS,
  },
  {
    name: 'adminEndSessions',
    needs: 'support',
    method: 'POST',
    path: '/admin/players/:playerId/sessions/end',
    summary: "End a player's sessions",
    description:
      "Removes the sessions named by `keys` (as GET /admin/players/{playerId}/sessions lists them), or all of the player's with `all: true` (exactly one of the two): their next request answers 203 and the player logs in again. A key the player does not hold is 107 (404) and ends none. Logged (admin.action).",
    pathParameters: { playerId: PosInt },
    request: EndSessions,
    response: EndSessionsResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'BODY_TOO_LARGE', 'NOT_FOUND', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  ...PLAYER_DATA_OPERATIONS,
  {
    name: 'adminGachas',
    needs: 'read',
    method: 'GET',
    path: '/admin/gachas',
    summary: 'Every gacha: period, prices, open now',
    description:
      "Each gacha of the master data: its period and weekdays (the game's time zone), whether it is open now, its prices, ten-draw size, guarantee and pool size.",
    response: AdminGachasResponse,
    errors: ['UNKNOWN_ERROR'],
  },
  {
    name: 'adminGacha',
    needs: 'read',
    method: 'GET',
    path: '/admin/gachas/:gachaId',
    summary: "A gacha's published rates beside the observed ones",
    description:
      "The rates box/get publishes (each rarity and character per pull, the guarantee, a whole ten-draw's effective per-pull rates) and the rates the draws gave, counted from every player's kept draw history (gacha.historyDays), single pulls and ten-draws apart. Reads every player without keeping them in memory (on the JSON-file store about a second per 30,000). An unknown gacha is 107 (404).",
    pathParameters: { gachaId: PosInt },
    response: AdminGachaResponse,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminHealth',
    needs: 'read',
    method: 'GET',
    path: '/admin/health',
    summary: 'What /readyz and /metrics say',
    description:
      "GET /readyz's checks, and from the registry GET /metrics writes: requests and errors by operation, storage commits and their latency, players in memory, journal bytes since the last checkpoint (metrics null with METRICS=off).",
    response: AdminHealthResponse,
    errors: ['UNKNOWN_ERROR'],
  },
  {
    name: 'adminMaster',
    needs: 'read',
    method: 'GET',
    path: '/admin/master',
    summary: 'The game data in force, its versions and schedule',
    description:
      "The version in force now: its hash (as the replay log names it), when this process built it and from where, the game's time zone and how many gachas, characters and items it defines; and the versions kept, the scheduled ones and the history of the schedule.",
    response: AdminMasterResponse,
    errors: ['UNKNOWN_ERROR'],
  },
  {
    name: 'adminPublishMaster',
    needs: 'design',
    method: 'POST',
    path: '/admin/master/versions',
    summary: 'Publish a version of the game data',
    description:
      'Files by name as in fixtures/, each its JSON text ("gachas.json": "[…]"; a file not given is the version in force\'s). Validated as start-up validates (a bad file is refused naming the file and field, nothing kept), kept by its hash, and answered with what it changes against the version in force, in words. Publishing changes nothing served: schedule it. Logged (admin.action).',
    request: PublishMaster,
    response: PublishMasterResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminScheduleMaster',
    needs: 'design',
    method: 'POST',
    path: '/admin/master/schedule',
    summary: 'Make a version take effect at an instant',
    description: `A kept version takes effect at \`at\` (${TIME_FORMS}; absent or null: now, or on a store shared by several processes as soon as every process knows, within MASTER_POLL_SECONDS twice). Every process serves each request with the version in force at that request's time. Rolling back is scheduling an earlier version. Logged (admin.action).`,
    request: ScheduleMaster,
    response: ScheduleEntryView,
    writes: true,
    errors: [
      'INVALID_PARAMETERS',
      'INSUFFICIENT_PARAMETERS',
      'BODY_TOO_LARGE',
      'NOT_FOUND',
      'DB_ERROR',
      'UNKNOWN_ERROR',
    ],
  },
  {
    name: 'adminCancelMasterSchedule',
    needs: 'design',
    method: 'POST',
    path: '/admin/master/schedule/:scheduleId/cancel',
    summary: 'Cancel a scheduled version before its time',
    description:
      'An entry not yet in effect is cancelled (kept in the history); one already in effect, cancelled or unknown is 404: to undo a change in force, schedule the earlier version. Logged (admin.action).',
    pathParameters: { scheduleId: ScheduleId },
    response: CancelScheduleResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminPreviewMaster',
    needs: 'design',
    method: 'POST',
    path: '/admin/master/preview',
    summary: 'Preview a version on a sample of the stored players',
    description: `Runs the simulator's behaviour profiles (toolkit/profiles.json) for \`days\` (1–${PREVIEW_LIMITS.days}, default 7) from now over \`players\` stored players (1–${PREVIEW_LIMITS.players}, default 200, evenly spread over the ids; their states are read, never written), under the version in force (A) and the kept version \`version\` (B), on the same random draws for \`seeds\` paired runs (2–${PREVIEW_LIMITS.seeds}, default 10). Answers each metric's means, the difference B − A with its 95% interval, and whether it survives a Benjamini–Hochberg correction over every metric (5% false discovery rate). Runs in worker threads (all cores but one), one preview at a time per process (another while one runs: 317); npm run sim -- --compare-live is the same from the shell. Logged (admin.action).`,
    request: PreviewMaster,
    response: PreviewMasterResponse,
    writes: true,
    errors: [
      'INVALID_PARAMETERS',
      'INSUFFICIENT_PARAMETERS',
      'BODY_TOO_LARGE',
      'NOT_FOUND',
      'STATE_CONFLICT',
      'DB_ERROR',
      'UNKNOWN_ERROR',
    ],
  },
  ...LIVEOPS_OPERATIONS,
  ...OPERATOR_OPERATIONS,
];
