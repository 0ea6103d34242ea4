// The operator API's operations on a player's own data (docs/privacy.md): its export as one
// versioned document (core/player-document.ts) and the import of such a document, as a new
// player or over the same one. Listed in ADMIN_OPERATIONS (admin-operations.ts: the router
// and the OpenAPI document read them there); served by admin-player-data.ts. The entries are
// typed where they are listed (this module imports nothing of that one: no import cycle).
import { createHash } from 'node:crypto';
import * as t from 'io-ts';
import type { ErrorName } from '../../core/errors.js';
import type { AdminOperation } from './admin-operation.js';
import { PosInt } from '../../core/codecs.js';
import { DOCUMENT_FORMAT, DOCUMENT_VERSION, PlayerDocument } from '../../core/player-document.js';
import { Uuid } from '../../core/operations/player.js';

/** What POST /admin/players/import takes: the document, and for a new player the device to bind it to, or the confirmation to overwrite. */
export const ImportRequest = t.exact(
  t.intersection([t.type({ document: t.unknown }), t.partial({ overwrite: t.boolean, uuid: Uuid })]),
  'AdminImportRequest',
);
/** The same as the OpenAPI document shows it: the document's shape spelled out. */
const ImportRequestShown = t.intersection(
  [t.type({ document: PlayerDocument }), t.partial({ overwrite: t.boolean, uuid: Uuid })],
  'AdminImportRequest',
);

const ImportResponse = t.union(
  [
    t.type(
      {
        /** A new player: its id, the uuid it is bound to and its access token (the player logs in with both). */
        playerId: t.number,
        uuid: t.string,
        accessToken: Uuid,
        overwritten: t.literal(false),
      },
      'AdminImportedPlayer',
    ),
    t.type(
      {
        /** The same player, overwritten: its id and its state's version now. */
        playerId: t.number,
        version: t.number,
        overwritten: t.literal(true),
      },
      'AdminRestoredPlayer',
    ),
  ],
  'AdminImportPlayerResponse',
);

/** Bytes and a hash of a JSON value: what admin.action logs of a player's data instead of the data. */
const fingerprint = (v: unknown): { bytes: number; sha256: string } => {
  const json = JSON.stringify(v) ?? '';
  return { bytes: Buffer.byteLength(json), sha256: createHash('sha256').update(json).digest('hex').slice(0, 16) };
};

const field = (o: unknown, k: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined;

const ERRORS: ReadonlyArray<ErrorName> = ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'];

export const PLAYER_DATA_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminExportPlayer',
    needs: 'support',
    method: 'GET' as const,
    path: '/admin/players/:playerId/export',
    summary: "A player's whole data as one versioned document",
    description: `The player's stored state (its draw history, gift box and everything else it holds, the account with its hashes; times in milliseconds since the epoch) in a document \`{format: "${DOCUMENT_FORMAT}", version: ${DOCUMENT_VERSION}, exportedAt, playerId, masterVersion, state}\` that POST /admin/players/import takes back, on this server or a later one (docs/privacy.md: the format and its versions). For a player's request for a copy of their data, and a backup before a repair. An unknown or deleted id is 202 (404). Logged (admin.action: the player and the document's size and hash, not its content).`,
    pathParameters: { playerId: PosInt },
    response: PlayerDocument,
    audited: true,
    logged: {
      answer: (a: Record<string, unknown>) => ({ playerId: a['playerId'], version: a['version'], ...fingerprint(a) }),
    },
    errors: ERRORS,
  },
  {
    name: 'adminImportPlayer',
    needs: 'admin',
    method: 'POST' as const,
    path: '/admin/players/import',
    summary: 'Restore an exported player: as a new player, or over the same one',
    description: `\`document\` is what GET /admin/players/{playerId}/export gave (older versions are migrated; one from a newer server is refused). It is read as strictly as a stored state: anything malformed is 102 naming the field (\`document.state.characters.3.level\`) and changes nothing. Without \`overwrite\` it becomes a new player: a new id, a new friend code and access token, bound to the document's uuid or to \`uuid\` (a uuid another player holds is 201); its friends, move code and moved-from uuids are not carried over. With \`overwrite: true\` (the confirmation) it is written over the same player, who must exist (else 202): the account (uuid, token, friend code, move code) and the relations stay as they are, the rest is the document's, and the player's sessions end. BODY_LIMIT_BYTES bounds the request. Logged (admin.action: the document's player, size and hash, not its content; never the new token).`,
    request: ImportRequestShown,
    response: ImportResponse,
    writes: true,
    logged: {
      request: (body: unknown) => {
        const doc = field(body, 'document');
        return {
          document: { playerId: field(doc, 'playerId'), version: field(doc, 'version'), ...fingerprint(doc) },
          overwrite: field(body, 'overwrite') ?? false,
          uuidGiven: field(body, 'uuid') !== undefined,
        };
      },
      answer: (a: Record<string, unknown>) => ({ playerId: a['playerId'], overwritten: a['overwritten'] }),
    },
    errors: [
      'INVALID_PARAMETERS',
      'INSUFFICIENT_PARAMETERS',
      'BODY_TOO_LARGE',
      'PLAYER_ALREADY_EXISTS',
      'PLAYER_NOT_FOUND',
      'STATE_CONFLICT',
      'DB_ERROR',
      'UNKNOWN_ERROR',
    ] satisfies ReadonlyArray<ErrorName>,
  },
];
