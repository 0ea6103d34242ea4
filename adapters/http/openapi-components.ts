// The OpenAPI document's parts no codec gives (openapi.ts): the envelope's schemas, the
// request headers (components.parameters) and the prose: the introduction, the tags', the shared components'.
import { ref, type Schema } from './json-schema.js';

export const ENVELOPE: Schema = {
  type: 'object',
  description:
    "The head of every answer, success or error; the operation's own fields stand beside it at the top level.",
  properties: {
    resultCode: {
      type: 'integer',
      description: '0 on success; otherwise the result code of the error (x-result-codes of each operation)',
    },
    resultMessage: {
      type: 'string',
      description: 'empty on success; an English sentence naming the field or the rule on error',
    },
    serverTime: { type: 'string', description: "the server's clock, YYYY-MM-DDTHH:mm:ss in the game's time zone" },
    serverVersion: { type: 'integer', description: "the service's build number (SERVER_VERSION)" },
  },
  required: ['resultCode', 'resultMessage', 'serverTime', 'serverVersion'],
};
export const ERROR_ENVELOPE: Schema = {
  description: 'An error answer: the envelope with a non-zero resultCode; a server fault (500) also names its request.',
  allOf: [
    ref('Envelope'),
    {
      type: 'object',
      properties: {
        requestId: {
          type: 'string',
          format: 'uuid',
          description: 'on 500: the id the server logged the fault under (also the X-Request-Id header)',
        },
        answerProblems: {
          type: 'array',
          items: { type: 'string' },
          description: 'on 500 from a server checking its answers: what the answer got wrong',
        },
      },
    },
  ],
};

const HASH_FORMULA = [
  'The request hash: lowercase hex SHA-256 of',
  '`[sessionId + " "] + pathWithQuery + [" " + rawBody] + " " + salt`, where',
  '`sessionId` is the X-STAR-SESSION-ID header when one is sent (a session given only as `Authorization: Bearer` leaves it out),',
  '`pathWithQuery` is the request target exactly as sent (`/api/player/present/get?managedPresentId=1,2&stepCode=0`),',
  '`rawBody` is the exact bytes of the JSON body (left out, with its space, when there is none), and',
  "`salt` is the server's REQUEST_HASH_SALT. Without a session, the form some clients send with a leading space",
  '(`" " + pathWithQuery + ...`) is accepted too. Optional unless the server sets REQUEST_HASH_REQUIRED;',
  'a hash that does not match is 101 (400).',
].join(' ');

export const PARAMETERS: Record<string, Schema> = {
  RequestHash: {
    name: 'X-STAR-REQUESTHASH',
    in: 'header',
    required: false,
    description: HASH_FORMULA,
    schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a POST safe to retry: the first answer to a key is kept (IDEMPOTENCY_TTL_SECONDS, a day by default) and a retry with the same key and the same request (method, path, body) gets that answer again without running the operation twice. ' +
      'The same key with another request is 109 (422); a retry while the first still runs is 110 (409): retry later with the same key. Transient failures (105, 317 from a concurrent change) are not kept, so a retry runs again. ' +
      '1 to 255 printable ASCII characters (a UUID is fine); anything else is 102.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
};

export const GROUP_DESCRIPTIONS: Record<string, string> = {
  player:
    'Sign-up and log-in (no session needed), the whole state of the player (get_all), stamina restores and the age bracket.',
  move: 'Moving an account to another device: a code and password issued here, redeemed by move/set without a session.',
  gacha:
    'Gacha draws (single, paid single, ten-draw), re-draws and fixing a pending draw, the gachas on offer, step boxes and gacha points.',
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
  room: "Room floors and the objects placed on them (another player's rooms without their managed ids).",
  roomObject: 'Room objects: buying, selling and storage.',
  contentRoom: 'Content rooms and the characters in them.',
  friend: 'Friends: search, proposals, accepting, refusing and ending friendships.',
  battleParty: 'Battle parties (managedBattleParties, fixed ids 1 to 15).',
  achievement: 'Achievements (titles): the list, the one displayed, marking new ones seen.',
  questLog:
    "Quests: order, save, retry, complete and reset; the quest logs. order and complete also answer at the original's 2017 paths quest_log/add and quest_log/set.",
  app: 'The version check before log-in (no session): the asset-bundle version, and outdated apps refused.',
  quest:
    "The quests with the player's best clear ranks, the quest chapters (global, no session) and adv (story) scenes viewed.",
  mission:
    "Daily, weekly and event missions: progress computed by the server from the player's actions, rewards claimed.",
  chest: 'Chests: step draws, resets and progress.',
  offer: 'Offers: timed tasks ordered and completed.',
  admin:
    'The operator API under /admin, mounted only when the server has ADMIN_TOKEN; it needs `Authorization: Bearer <ADMIN_TOKEN>`.',
  ops: 'For load balancers, orchestrators and Prometheus: liveness, readiness and metrics, outside /api and its rate limits, without the envelope.',
};

export const DESCRIPTION = `The player service of a mobile gacha RPG.

**Envelope.** Every answer, success or error, is one JSON object: the envelope (\`resultCode\`, \`resultMessage\`, \`serverTime\`, \`serverVersion\`) with the operation's own fields beside it at the top level. \`resultCode\` 0 is success; each operation lists the others it can give (\`x-result-codes\`, and per HTTP status under responses). A server started with ALWAYS_200 answers every /api response with status 200: read \`resultCode\` then.

**Requests.** GET operations take their fields as query parameters (several ids comma-separated: \`?managedPresentId=1,2,3\`) and no body. POST operations take a JSON object body (\`Content-Type: application/json\`); an empty body is \`{}\`. Integers may also be sent as numeric strings (\`"2015"\`). Unknown fields are ignored.

**Sessions.** \`POST /api/player/signup\` gives an access token (a UUID), \`POST /api/player/login\` a session id; every other /api operation needs that session as the \`X-STAR-SESSION-ID\` header (or \`Authorization: Bearer <sessionId>\`). A missing or expired session is 203 (401).

**Request hash.** ${HASH_FORMULA}

**Retries.** Send \`Idempotency-Key\` on a POST and retry with the same key: the operation runs once. 429 answers carry \`Retry-After\` (seconds).

**Changes.** An answer that changed the player's state also carries the changed parts of the player's view (\`player\`, \`managedCharacters\`, \`itemSummary\`, ...: the Changes schema), so a client need not read everything again.`;

/** What the shared components are, for a reader of the document (the rest are named after their operation). */
export const COMPONENT_DESCRIPTIONS: Record<string, string> = {
  PlayerView: 'The player as the client sees it: currencies, stamina now, limits, tutorial.',
  FullView: 'The whole state as the client sees it (get_all): the player and every collection.',
  Changes: 'The parts of the state an answer carries because the operation changed them: some of these, each whole.',
  PlayerState: 'The state as stored (the admin API only): times in milliseconds since the epoch.',
  OperatorTime:
    "A time as an operator writes it: the wire's form, `2026-12-31T23:59:59`, in the game's time zone (as every answer's times), or ISO 8601 with a zone, `2026-12-31T14:59:59Z` or `…+09:00`.",
};
