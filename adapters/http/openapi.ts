// The OpenAPI 3.1 document, generated from the operations table and the same io-ts
// codecs that validate requests and check answers: what is published is what is
// enforced. Named codecs (the views, the XxxResponse and XxxRequest codecs) become
// components.schemas, referenced by $ref wherever they are used, so a generated
// client gets one type per view. The codecs are walked into JSON Schema by
// json-schema.ts.
import type * as t from 'io-ts';
import { OPERATIONS } from '../../core/operations/table.js';
import { accessOf, answerCodec, type AnyOperation } from '../../core/operation.js';
import { PlayerState } from '../../core/state.js';
import { RESULT_CODES, type ErrorName } from '../../core/errors.js';
import { HTTP_STATUS } from './status.js';
import { ADMIN_OPERATIONS, type AdminOperation } from './admin-operations.js';
import { core, ref, SchemaWalker, type Schema } from './json-schema.js';

/** Errors any operation can give, besides its own. */
const TRANSPORT: ReadonlyArray<ErrorName> = ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'INVALID_REQUEST_HASH', 'RATE_LIMITED', 'DB_ERROR', 'UNKNOWN_ERROR'];

/** Every error an operation can answer with: its own, the request's, the session's, idempotency's. */
export const errorsOf = (op: AnyOperation): ErrorName[] => [...new Set<ErrorName>([
  ...op.errors, ...TRANSPORT,
  ...(op.method === 'POST' ? ['BODY_TOO_LARGE', 'IDEMPOTENCY_KEY_REUSED', 'REQUEST_IN_PROGRESS'] as const : []),
  // A retry of an answer that handed out a secret (an access token, a session id): done once, not shown again.
  ...(op.method === 'POST' && op.issues ? ['ANSWER_WITHHELD'] as const : []),
  ...(accessOf(op) === 'session' ? ['PLAYER_SESSION_EXPIRED'] as const : []),
  // A commit that keeps losing the race with another writer of the same player.
  ...(accessOf(op) === 'session' && !op.readOnly ? ['STATE_CONFLICT'] as const : []),
  // Any change that would put a present beyond the box's bound is refused (master data presents.boxMax).
  ...(accessOf(op) === 'session' && !op.readOnly ? ['PRESENT_LIMIT'] as const : []),
])].sort((a, b) => RESULT_CODES[a].resultCode - RESULT_CODES[b].resultCode);

const WHY: Partial<Record<ErrorName, string>> = {
  INVALID_PARAMETERS: 'a field is not valid (the message names it)',
  INSUFFICIENT_PARAMETERS: 'a required field is missing (the message names it)',
  INVALID_REQUEST_HASH: 'X-STAR-REQUESTHASH does not match the request, or is missing where the server requires it',
  DB_ERROR: 'the store failed; nothing changed, try again later',
  BODY_TOO_LARGE: 'the body is larger than the server\'s limit (BODY_LIMIT_BYTES)',
  IDEMPOTENCY_KEY_REUSED: 'this Idempotency-Key was used with a different request',
  REQUEST_IN_PROGRESS: 'a request with this Idempotency-Key is still running; retry it later with the same key',
  RATE_LIMITED: 'too many requests; wait for Retry-After seconds',
  PRESENT_LIMIT: 'the present box is full (master data presents.boxMax): receive presents first; nothing changed',
  ANSWER_WITHHELD: 'this Idempotency-Key\'s request was done; its answer held a secret (access token, session id), which is never replayed: log in again; a sign-up whose token was lost has no progress yet: sign up again with a new uuid',
  PLAYER_SESSION_EXPIRED: 'no session, an unknown one, or one idle too long: log in again',
  STATE_CONFLICT: 'not allowed in the current state, or the player changed concurrently; the message says which',
  NOT_FOUND: 'no such entity (a master id or an owned id)',
  UNKNOWN_ERROR: 'a server fault; the body carries requestId for the logs',
};
const why = (e: ErrorName): string => WHY[e] ?? e.toLowerCase().replace(/_/g, ' ');

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request', 401: 'No valid session', 403: 'Not allowed', 404: 'Not found', 409: 'Conflict with the current state',
  413: 'Body too large', 422: 'Idempotency-Key reused', 429: 'Rate limited', 500: 'Server fault', 501: 'Not implemented', 503: 'Store unavailable',
};

const RETRY_AFTER = { description: 'Seconds to wait before the next request.', schema: { type: 'integer', minimum: 1 } };

interface ErrorAnswer { readonly name: string; readonly resultCode: number; readonly status: number; readonly why: string }

/**
 * The error answers of an operation, one per HTTP status, each listing its result
 * codes. An answer several operations share (the same status and codes) is one
 * component of components.responses, so the document stays readable.
 */
class ErrorResponses {
  readonly components: Record<string, Schema> = {};
  of(errors: ReadonlyArray<ErrorAnswer>): Record<string, Schema> {
    const byStatus = new Map<number, ErrorAnswer[]>();
    for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
    return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => {
      const codes = [...new Set(list.map((e) => e.resultCode))];
      const response: Schema = {
        description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((e) => `${e.resultCode} ${e.name} (${e.why})`).join('; ')}.`,
        content: { 'application/json': { schema: { allOf: [ref('ErrorEnvelope'), { type: 'object', properties: { resultCode: { type: 'integer', enum: codes } }, required: ['resultCode'] }] } } },
      };
      if (status === 429) response['headers'] = { 'Retry-After': RETRY_AFTER };
      const name = `Error${status}_${list.map((e) => e.name).join('_')}`;
      this.components[name] ??= response;
      return [String(status), { $ref: `#/components/responses/${name}` }];
    }));
  }
}

const ENVELOPE: Schema = {
  type: 'object',
  description: 'The head of every answer, success or error; the operation\'s own fields stand beside it at the top level.',
  properties: {
    resultCode: { type: 'integer', description: '0 on success; otherwise the result code of the error (x-result-codes of each operation)' },
    resultMessage: { type: 'string', description: 'empty on success; an English sentence naming the field or the rule on error' },
    serverTime: { type: 'string', description: 'the server\'s clock, YYYY-MM-DDTHH:mm:ss in the game\'s time zone' },
    serverVersion: { type: 'integer', description: 'the service\'s build number (SERVER_VERSION)' },
  },
  required: ['resultCode', 'resultMessage', 'serverTime', 'serverVersion'],
};
const ERROR_ENVELOPE: Schema = {
  description: 'An error answer: the envelope with a non-zero resultCode; a server fault (500) also names its request.',
  allOf: [ref('Envelope'), {
    type: 'object',
    properties: {
      requestId: { type: 'string', format: 'uuid', description: 'on 500: the id the server logged the fault under (also the X-Request-Id header)' },
      answerProblems: { type: 'array', items: { type: 'string' }, description: 'on 500 from a server checking its answers: what the answer got wrong' },
    },
  }],
};

const HASH_FORMULA = [
  'The request hash: lowercase hex SHA-256 of',
  '`[sessionId + " "] + pathWithQuery + [" " + rawBody] + " " + salt`, where',
  '`sessionId` is the X-STAR-SESSION-ID header when one is sent (a session given only as `Authorization: Bearer` leaves it out),',
  '`pathWithQuery` is the request target exactly as sent (`/api/player/present/get?managedPresentId=1,2&stepCode=0`),',
  '`rawBody` is the exact bytes of the JSON body (left out, with its space, when there is none), and',
  '`salt` is the server\'s REQUEST_HASH_SALT. Without a session, the form some clients send with a leading space',
  '(`" " + pathWithQuery + ...`) is accepted too. Optional unless the server sets REQUEST_HASH_REQUIRED;',
  'a hash that does not match is 101 (400).',
].join(' ');

const PARAMETERS: Record<string, Schema> = {
  RequestHash: { name: 'X-STAR-REQUESTHASH', in: 'header', required: false, description: HASH_FORMULA, schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' } },
  IdempotencyKey: {
    name: 'Idempotency-Key', in: 'header', required: false,
    description: 'Makes a POST safe to retry: the first answer to a key is kept (IDEMPOTENCY_TTL_SECONDS, a day by default) and a retry with the same key and the same request (method, path, body) gets that answer again without running the operation twice. '
      + 'The same key with another request is 109 (422); a retry while the first still runs is 110 (409): retry later with the same key. Transient failures (105, 317 from a concurrent change) are not kept, so a retry runs again. '
      + '1 to 255 printable ASCII characters (a UUID is fine); anything else is 102.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
};

const GROUP_DESCRIPTIONS: Record<string, string> = {
  player: 'Sign-up and log-in (no session needed), the whole state of the player (get_all), stamina restores and the age bracket.',
  move: 'Moving an account to another device: a code and password issued here, redeemed by move/set without a session.',
  gacha: 'Gacha draws (single, paid single, ten-draw), re-draws and fixing a pending draw, the gachas on offer, step boxes and gacha points.',
  present: 'The gift box: presents waiting, receiving them, and what was received.',
  tutorial: 'Tutorial steps and tips seen.',
  character: 'Owned characters: upgrade, limit break, evolution, views and support parties.',
  weapon: 'Owned weapons: make, upgrade, evolve, sell, and storage.',
  training: 'Training slots: ordering, completing and cancelling trainings.',
  ability: 'Ability trees: releasing slots, equipping and upgrading spheres.',
  item: 'Items: selling and trading by recipe.',
  townFacility: 'Town facilities: buying, building, levelling up, producing and selling.',
  town: 'The town layout: build points and content buildings.',
  fieldParty: 'Characters placed in the field.',
  room: 'Room floors and the objects placed on them (another player\'s rooms without their managed ids).',
  roomObject: 'Room objects: buying, selling and storage.',
  contentRoom: 'Content rooms and the characters in them.',
  friend: 'Friends: search, proposals, accepting, refusing and ending friendships.',
  battleParty: 'Battle parties (managedBattleParties, fixed ids 1 to 15).',
  achievement: 'Achievements (titles): the list, the one displayed, marking new ones seen.',
  questLog: 'Quests: order, save, retry, complete and reset; the quest logs. order and complete also answer at the original\'s 2017 paths quest_log/add and quest_log/set.',
  app: 'The version check before log-in (no session): the asset-bundle version, and outdated apps refused.',
  quest: 'The quests with the player\'s best clear ranks, the quest chapters (global, no session) and adv (story) scenes viewed.',
  mission: 'Daily, weekly and event missions: progress computed by the server from the player\'s actions, rewards claimed.',
  chest: 'Chests: step draws, resets and progress.',
  offer: 'Offers: timed tasks ordered and completed.',
  admin: 'The operator API under /admin, mounted only when the server has ADMIN_TOKEN; it needs `Authorization: Bearer <ADMIN_TOKEN>`.',
  ops: 'For load balancers, orchestrators and Prometheus: liveness, readiness and metrics, outside /api and its rate limits, without the envelope.',
};

/** GET /healthz, /readyz and /metrics (adapters/http/ops.ts): plain answers, no envelope. */
const OPS_PATHS_DOC: Record<string, Record<string, Schema>> = (() => {
  const checks = {
    type: 'object', required: ['status', 'checks'],
    properties: {
      status: { enum: ['ready', 'not ready'] },
      checks: {
        type: 'object', required: ['storage', 'master', 'draining'],
        properties: {
          storage: { type: 'string', description: '"ok", or why the storage cannot take writes (closed, a full or read-only disk, PostgreSQL unreachable or read-only).' },
          master: { type: 'string', description: '"ok" once the master data is loaded.' },
          draining: { type: 'boolean', description: 'True from the stop signal (SIGTERM) on: requests in flight finish, new ones should go elsewhere.' },
        },
      },
    },
  };
  const json = (schema: Schema) => ({ 'application/json': { schema } });
  const wrongMethod = { description: 'A method other than GET or HEAD (the Allow header lists those), as for any known path: the error envelope with 102.', headers: { Allow: { description: 'The methods the path takes.', schema: { type: 'string' } } }, content: json(ref('ErrorEnvelope')) };
  return {
    '/healthz': {
      get: {
        operationId: 'healthz', summary: 'Liveness: the process answers', tags: ['ops'], security: [],
        description: 'Always 200 while the process runs and its event loop turns; for a liveness probe. Checks nothing else (see /readyz).',
        responses: { 200: { description: 'Alive.', content: json({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }) }, 405: wrongMethod },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz', summary: 'Readiness: the server can serve', tags: ['ops'], security: [],
        description: 'Ready when the storage is open and takes writes (a file can be written in DATA_DIR; PostgreSQL answers and is not read-only), the master data is loaded and the server is not stopping. For a load balancer\'s or an orchestrator\'s readiness probe.',
        responses: {
          200: { description: 'Ready.', content: json(checks) },
          405: wrongMethod,
          503: { description: 'Not ready: the checks say why.', content: json(checks) },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics', summary: 'Prometheus metrics', tags: ['ops'], security: [{ metricsBearer: [] }, {}],
        description: 'The Prometheus text format: hoshi_requests_total (by operation, result code and status), hoshi_request_duration_seconds, hoshi_rate_limited_total, hoshi_storage_commits_total and hoshi_storage_commit_duration_seconds, hoshi_storage_fsync_batch_commits, hoshi_storage_cache_total (hit, miss), hoshi_players_in_memory, hoshi_journal_bytes, hoshi_pg_pool_connections, and the process\'s (process_*, nodejs_*). Open unless the server has METRICS_TOKEN, then `Authorization: Bearer <METRICS_TOKEN>`; absent with METRICS=off.',
        responses: {
          200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: { description: 'METRICS_TOKEN is set and the request did not carry it.', content: json({ type: 'object', required: ['error'], properties: { error: { type: 'string' } } }) },
        },
      },
    },
  };
})();

const DESCRIPTION = `The player service of a mobile gacha RPG.

**Envelope.** Every answer, success or error, is one JSON object: the envelope (\`resultCode\`, \`resultMessage\`, \`serverTime\`, \`serverVersion\`) with the operation's own fields beside it at the top level. \`resultCode\` 0 is success; each operation lists the others it can give (\`x-result-codes\`, and per HTTP status under responses). A server started with ALWAYS_200 answers every /api response with status 200: read \`resultCode\` then.

**Requests.** GET operations take their fields as query parameters (several ids comma-separated: \`?managedPresentId=1,2,3\`) and no body. POST operations take a JSON object body (\`Content-Type: application/json\`); an empty body is \`{}\`. Integers may also be sent as numeric strings (\`"2015"\`). Unknown fields are ignored.

**Sessions.** \`POST /api/player/signup\` gives an access token (a UUID), \`POST /api/player/login\` a session id; every other /api operation needs that session as the \`X-STAR-SESSION-ID\` header (or \`Authorization: Bearer <sessionId>\`). A missing or expired session is 203 (401).

**Request hash.** ${HASH_FORMULA}

**Retries.** Send \`Idempotency-Key\` on a POST and retry with the same key: the operation runs once. 429 answers carry \`Retry-After\` (seconds).

**Changes.** An answer that changed the player's state also carries the changed parts of the player's view (\`player\`, \`managedCharacters\`, \`itemSummary\`, ...: the Changes schema), so a client need not read everything again.`;

/** What the shared components are, for a reader of the document (the rest are named after their operation). */
const COMPONENT_DESCRIPTIONS: Record<string, string> = {
  PlayerView: 'The player as the client sees it: currencies, stamina now, limits, tutorial.',
  FullView: 'The whole state as the client sees it (get_all): the player and every collection.',
  Changes: 'The parts of the state an answer carries because the operation changed them: some of these, each whole.',
  PlayerState: 'The state as stored (the admin API only): times in milliseconds since the epoch.',
  OperatorTime: 'A time as an operator writes it: the wire\'s form, `2026-12-31T23:59:59`, in the game\'s time zone (as every answer\'s times), or ISO 8601 with a zone, `2026-12-31T14:59:59Z` or `…+09:00`.',
};

/** The 200 answer: the envelope and the operation's own fields (and, where it can change state, Changes). */
const okResponse = (w: SchemaWalker, codec: t.Mixed, at: string): Schema => {
  const answer = w.schema(codec, at);
  const parts = Array.isArray(answer['allOf']) && Object.keys(answer).length === 1 ? (answer['allOf'] as Schema[]) : [answer];
  return { description: 'Success (resultCode 0).', content: { 'application/json': { schema: { allOf: [ref('Envelope'), ...parts] } } } };
};

const apiOperation = (w: SchemaWalker, errorResponses: ErrorResponses, op: AnyOperation): Schema => {
  const errors = errorsOf(op);
  const operation: Schema = {
    operationId: op.name, summary: op.summary, tags: [op.group],
    description: op.method === 'GET'
      ? 'A GET: its fields are query parameters (no body); several ids go comma-separated.'
      : 'A POST: its fields are a JSON object body. Send Idempotency-Key to make a retry safe.',
    'x-result-codes': errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e] })),
    security: accessOf(op) === 'session' ? [{ session: [] }, { bearer: [] }] : [],
    parameters: [{ $ref: '#/components/parameters/RequestHash' }, ...(op.method === 'POST' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [])],
    responses: {
      200: okResponse(w, answerCodec(op), `${op.name}.response`),
      ...errorResponses.of(errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e], why: why(e) }))),
    },
  };
  if (op.method === 'GET') {
    const req = w.inline(core(op.request), `${op.name}.request`);
    const props = (req['properties'] as Record<string, Schema> | undefined) ?? {};
    const required = new Set((req['required'] as string[] | undefined) ?? []);
    operation['parameters'] = [
      ...Object.entries(props).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema })),
      ...(operation['parameters'] as Schema[]),
    ];
  } else {
    operation['requestBody'] = { required: true, content: { 'application/json': { schema: w.schema(op.request, `${op.name}.request`) } } };
  }
  return operation;
};

const adminOperation = (w: SchemaWalker, errorResponses: ErrorResponses, op: AdminOperation): Schema => {
  const errors = [
    ...op.errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e], why: why(e) })),
    { name: 'ADMIN_TOKEN' as const, resultCode: RESULT_CODES.PLAYER_SESSION_EXPIRED.resultCode, status: 401, why: 'no Authorization: Bearer <ADMIN_TOKEN>, or the wrong token' },
  ].sort((a, b) => a.resultCode - b.resultCode);
  const operation: Schema = {
    operationId: op.name, summary: op.summary, description: op.description, tags: ['admin'],
    security: [{ adminBearer: [] }],
    'x-result-codes': errors.map((e) => ({ name: e.name, resultCode: e.resultCode, status: e.status })),
    responses: { 200: okResponse(w, op.response, `${op.name}.response`), ...errorResponses.of(errors) },
  };
  const parameters = [
    ...Object.entries(op.pathParameters ?? {}).map(([name, codec]) => ({ name, in: 'path', required: true, schema: w.schema(codec, `${op.name}.${name}`) })),
    ...Object.entries(op.queryParameters ?? {}).map(([name, q]) => ({ name, in: 'query', required: false, description: q.description, schema: w.schema(q.codec, `${op.name}.${name}`) })),
  ];
  if (parameters.length > 0) operation['parameters'] = parameters;
  if (op.request) operation['requestBody'] = { required: true, content: { 'application/json': { schema: w.schema(op.request, `${op.name}.request`) } } };
  return operation;
};

/** The document and what the walk found wrong (clashing names, codecs it could not describe). */
export const buildOpenApi = (serverVersion: number): { document: Schema; clashes: string[]; untyped: string[] } => {
  const w = new SchemaWalker(true, [[PlayerState, 'PlayerState']]);
  const errors = new ErrorResponses();
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of OPERATIONS) {
    const entry = apiOperation(w, errors, op);
    (paths[`/api${op.path}`] ??= {})[op.method.toLowerCase()] = entry;
    // An alias (the original's older name) is the same entry at another path, marked deprecated.
    for (const alias of op.aliases ?? []) {
      const last = alias.split('/').pop() ?? '';
      (paths[`/api${alias}`] ??= {})[op.method.toLowerCase()] = {
        ...entry, operationId: `${op.name}Via${last.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase())}`, deprecated: true,
        description: `The original's older path of ${op.method} /api${op.path} (${op.name}), served by the same entry. ${entry['description'] as string}`,
      };
    }
  }
  for (const op of ADMIN_OPERATIONS) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[op.method.toLowerCase()] = adminOperation(w, errors, op);
  }
  Object.assign(paths, OPS_PATHS_DOC);
  const groups = [...new Set([...OPERATIONS.map((o) => o.group), 'admin', 'ops'])];
  const components = Object.fromEntries(Object.entries(w.components).sort(([a], [b]) => a.localeCompare(b))
    .map(([name, schema]) => [name, COMPONENT_DESCRIPTIONS[name] ? { description: COMPONENT_DESCRIPTIONS[name], ...schema } : schema]));
  const document: Schema = {
    openapi: '3.1.0',
    info: { title: 'hoshi player service', version: String(serverVersion), description: DESCRIPTION },
    servers: [{ url: '/', description: 'This server: player operations under /api, the operator API under /admin, probes and metrics at the root.' }],
    tags: groups.map((name) => ({ name, description: GROUP_DESCRIPTIONS[name] ?? `The ${name} operations.` })),
    paths,
    components: {
      schemas: { Envelope: ENVELOPE, ErrorEnvelope: ERROR_ENVELOPE, ...components },
      parameters: PARAMETERS,
      responses: Object.fromEntries(Object.entries(errors.components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        session: { type: 'apiKey', in: 'header', name: 'X-STAR-SESSION-ID', description: 'The session id that POST /api/player/login gives.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same session id as `Authorization: Bearer <sessionId>` (X-STAR-SESSION-ID wins when both are sent).' },
        adminBearer: { type: 'http', scheme: 'bearer', description: 'The operator API: `Authorization: Bearer <ADMIN_TOKEN>`, the token the server was started with.' },
        metricsBearer: { type: 'http', scheme: 'bearer', description: 'GET /metrics when the server has METRICS_TOKEN: `Authorization: Bearer <METRICS_TOKEN>`.' },
      },
    },
  };
  return { document, clashes: w.clashes, untyped: w.untyped };
};

const built = new Map<number, Schema>();
/** The document served at GET /api/openapi.json (built once per server version: the table does not change). */
export const openApiDocument = (serverVersion: number): Schema => {
  let doc = built.get(serverVersion);
  if (!doc) built.set(serverVersion, (doc = buildOpenApi(serverVersion).document));
  return doc;
};
