// A player's data as one document (GET /admin/players/:id/export, POST /admin/players/import):
// versioned, so that a document written by this server still imports into a later one.
//
//   {"format": "hoshi-player", "version": 1, "exportedAt": "2026-…Z", "playerId": 12,
//    "masterVersion": "<hash>", "state": {…the stored state…}}
//
// Version 1 is the first. A document is read in three steps: its version's migrations
// (DOCUMENT_MIGRATIONS: version n made into n + 1, in turn, up to this one), then the
// current shape, then its state through decodeState, as a store reads a stored state
// (fields a later group added are filled with their defaults, so a version-1 document
// written before a field existed still imports). docs/privacy.md says how a version 2
// will be added.
import * as t from 'io-ts';
import { pathOf, PosInt } from './codecs.js';
import { E } from './shared/result.js';
import { formatTime } from './time.js';
import { decodeState, isDeleted, PlayerState } from './state.js';

export const DOCUMENT_FORMAT = 'hoshi-player';
/** The version this server writes, and the newest it reads. */
export const DOCUMENT_VERSION = 1;

/** A stored state as a document carries it, read as a store reads one (decodeState); a field that does not decode is named from here. */
export const StoredState = new t.Type<PlayerState, PlayerState, unknown>(
  'PlayerState',
  (u): u is PlayerState => PlayerState.is(u),
  (u, c) => {
    const d = decodeState(u);
    if (d._tag === 'Right') return d;
    // decodeState's errors start at its own root (the state's codec): placed at this position instead.
    const here = c.slice(0, -1);
    const at = c[c.length - 1];
    return t.failures(
      d.left.map((e) => {
        const root = e.context[0];
        return { ...e, context: [...here, ...(at && root ? [{ ...root, key: at.key }] : []), ...e.context.slice(1)] };
      }),
    );
  },
  t.identity,
);

/** The document's shape in the current version (the OpenAPI document shows it). */
export const PlayerDocument = t.intersection(
  [
    t.type({
      format: t.literal(DOCUMENT_FORMAT),
      version: t.literal(DOCUMENT_VERSION),
      /** When it was made: ISO 8601, UTC. */
      exportedAt: t.string,
      playerId: PosInt,
      /** The state as stored: times in milliseconds since the epoch, the account with its hashes. */
      state: PlayerState,
    }),
    /** The game data's version in force when it was made (the replay log's masterHash). */
    t.partial({ masterVersion: t.string }),
  ],
  'HoshiPlayerDocument',
);
export type PlayerDocument = t.TypeOf<typeof PlayerDocument>;

/** The current shape, its state read by StoredState (what an import decodes after the migrations). */
const CurrentDocument = t.intersection([
  t.type({
    format: t.literal(DOCUMENT_FORMAT),
    version: t.literal(DOCUMENT_VERSION),
    exportedAt: t.string,
    playerId: PosInt,
    state: StoredState,
  }),
  t.partial({ masterVersion: t.string }),
]);

/** A migration: a document of version n (a JSON object) made into one of version n + 1. */
export type DocumentMigration = (doc: Readonly<Record<string, unknown>>) => Record<string, unknown>;

/** The migrations, by the version they read. None yet: version 1 is the first. */
export const DOCUMENT_MIGRATIONS: Readonly<Record<number, DocumentMigration>> = {};

/** Why a document does not import: the field (from the document's root) and what is wrong with it. */
export interface DocumentProblem {
  readonly field: string;
  readonly reason: string;
}

/** The document a player's stored state makes, at an instant. */
export const documentOf = (state: PlayerState, now: number, masterVersion?: string): PlayerDocument => ({
  format: DOCUMENT_FORMAT,
  version: DOCUMENT_VERSION,
  exportedAt: `${formatTime(now, 0)}Z`,
  playerId: state.playerId,
  ...(masterVersion === undefined ? {} : { masterVersion }),
  state,
});

const refused = (field: string, reason: string): E.Either<DocumentProblem, never> => E.left({ field, reason });

/** The first of a decoder's errors as a field (from the document's root) and a reason. */
const problemOf = (errors: t.Errors): DocumentProblem => {
  const first = errors[0];
  if (!first) return { field: '(document)', reason: 'is not valid' };
  const field = pathOf(first, '(document)');
  if (first.value === undefined) return { field, reason: 'is missing' };
  return { field, reason: first.message ?? `must be ${first.context[first.context.length - 1]?.type.name ?? 'valid'}` };
};

/**
 * Reads a document: its migrations, its shape, its state as a stored state, and what a
 * state must be to be a player's (its id the document's; not a deleted player's). A
 * refusal names the field from the document's root (`state.characters.3.level`).
 */
export const readDocument = (
  u: unknown,
  migrations: Readonly<Record<number, DocumentMigration>> = DOCUMENT_MIGRATIONS,
): E.Either<DocumentProblem, PlayerDocument> => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return refused('(document)', 'must be a JSON object');
  let doc = u as Readonly<Record<string, unknown>>;
  if (doc['format'] !== DOCUMENT_FORMAT) return refused('format', `must be "${DOCUMENT_FORMAT}"`);
  const v = doc['version'];
  if (typeof v !== 'number' || !Number.isInteger(v)) return refused('version', 'must be an integer');
  if (v > DOCUMENT_VERSION)
    return refused('version', `is ${v}: made by a newer server (this one reads versions up to ${DOCUMENT_VERSION})`);
  for (let n = v; n < DOCUMENT_VERSION; n++) {
    const step = migrations[n];
    if (step === undefined) return refused('version', `is ${v}: no migration from version ${n} is known`);
    doc = step(doc);
  }
  const d = CurrentDocument.decode(doc);
  if (d._tag === 'Left') return E.left(problemOf(d.left));
  const s = d.right.state;
  if (s.playerId !== d.right.playerId)
    return refused('state.playerId', `must be the document's playerId (${d.right.playerId})`);
  if (isDeleted(s)) return refused('state.account.deletedAt', "is set: a deleted player's tombstone holds no player");
  if (!Number.isInteger(s.version) || s.version < 0) return refused('state.version', 'must be an integer, at least 0');
  return E.right(d.right);
};
