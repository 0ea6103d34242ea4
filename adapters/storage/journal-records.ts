// A journal record and the states in it: its line encoded (a state whole, or as a delta:
// the fields it changed, a changed list as an edit of the list it replaced), and a delta applied back.
import * as t from 'io-ts';
import { STATE_FIELDS, type PlayerState } from '../../core/state.js';
import { walkRuns } from '../../core/state/replaced.js';
import { canonicalFields, canonicalJson, changedJson } from './canonical.js';
import { crc32 } from './crc32.js';
import type { StoredLogEntry } from './replay-log.js';
import { StorageError, type Erasure, type IdempotencyRecord, type Session } from './storage.js';

/** A record as written: one commit. */
export interface JournalRecord {
  readonly seq: number;
  /** Whole states: new players (and every state in journals written before deltas). */
  readonly players: PlayerState[];
  /** The fields of a state that changed, from the version named `base` (a delta is a few kB where a state is tens). */
  readonly deltas?: Delta[];
  readonly sessions: Array<{ key: string; session: Session | null }>;
  readonly idempotency?: Array<{ key: string; record: IdempotencyRecord }>;
  readonly log?: StoredLogEntry[];
  /** The player the commit deleted, and what its kept answers lose (storage.ts Erasure); the checkpoint after it purges the log. */
  readonly erase?: Erasure;
}

export interface Delta {
  readonly playerId: number;
  readonly base: number;
  /** Each field as the state's codec for it decodes it (applyDelta decodes them). */
  readonly set: Readonly<Record<string, unknown>>;
  /** Lists as edits of the base state's (listEdit): `[from, count]` copies a run, an object is an element. */
  readonly edits?: Readonly<Record<string, ReadonlyArray<unknown>>>;
}

/** A state to journal: whole, or the fields changed since `base`. */
export type Journaled =
  | { readonly kind: 'whole'; readonly state: PlayerState }
  | {
      readonly kind: 'delta';
      readonly state: PlayerState;
      readonly before: PlayerState;
      readonly fields: ReadonlyArray<string>;
    };

/** What a commit journals for a state, given the state it replaces (fields compared by identity: updates never mutate). */
export const journaled = (state: PlayerState, before: PlayerState | undefined): Journaled => {
  if (!before) return { kind: 'whole', state };
  const fields: string[] = [];
  const was = before as unknown as Record<string, unknown>;
  const now = state as unknown as Record<string, unknown>;
  // Every state has every field (its codec): a field is changed, never removed. Keys, not
  // entries: entries made a pair for each of the ~50 fields on every commit.
  for (const k of Object.keys(now)) if (was[k] !== now[k]) fields.push(k);
  return { kind: 'delta', state, before, fields };
};

/** A record's line: its states whole or as deltas, in canonical JSON (reusing the JSON of unchanged parts). */
export const encodeRecord = (
  r: Omit<JournalRecord, 'players' | 'deltas'>,
  states: ReadonlyArray<Journaled>,
): string => {
  const whole = states.filter((x) => x.kind === 'whole').map((x) => canonicalJson(x.state));
  const deltas = states.flatMap((x) => (x.kind === 'delta' ? [deltaJson(x.state, x.before, x.fields)] : []));
  const json = `{"players":[${whole.join(',')}],${deltas.length > 0 ? `"deltas":[${deltas.join(',')}],` : ''}${JSON.stringify(r).slice(1)}`;
  return `${crc32(Buffer.from(json, 'utf8')).toString(16).padStart(8, '0')} ${json}\n`;
};

/** A delta's JSON: changed lists as edits of the ones they replaced, other changed fields whole (the journal's, and PostgreSQL's delta rows). */
export const deltaJson = (state: PlayerState, before: PlayerState, fields: ReadonlyArray<string>): string => {
  const now = state as unknown as Record<string, unknown>;
  const was = before as unknown as Record<string, unknown>;
  // Stryker disable next-line ArrayDeclaration: equivalent (a field name put here that the state lacks is undefined, which canonicalFields leaves out)
  const whole: string[] = [];
  const edits: string[] = [];
  for (const k of fields) {
    const v = now[k];
    const old = was[k];
    const edit = Array.isArray(v) && Array.isArray(old) ? listEdit(v, old) : undefined;
    if (edit === undefined) whole.push(k);
    else edits.push(`${JSON.stringify(k)}:${edit}`);
  }
  const set = canonicalFields(now, whole);
  return `{"base":${before.version},${edits.length > 0 ? `"edits":{${edits.join(',')}},` : ''}"playerId":${state.playerId},"set":${set}}`;
};

/** A list from an edit of the base state's list; undefined when the edit does not fit it. */
const editedList = (
  base: ReadonlyArray<unknown>,
  ops: ReadonlyArray<unknown>,
  element: t.Mixed,
): unknown[] | undefined => {
  const out: unknown[] = [];
  for (const op of ops) {
    if (Array.isArray(op)) {
      const [from, count] = op as unknown[];
      if (op.length !== 2 || !Number.isInteger(from) || !Number.isInteger(count)) return undefined;
      const f = from as number;
      const c = count as number;
      if (f < 0 || c < 1 || f + c > base.length) return undefined;
      for (let i = f; i < f + c; i++) out.push(base[i]);
    } else {
      const decoded = element.decode(op);
      if (decoded._tag === 'Left') return undefined;
      out.push(decoded.right);
    }
  }
  return out;
};

/** A state with a delta's fields, each decoded with the state's own codec for it (a list edit element by element). */
export const applyDelta = (base: PlayerState, d: Delta, where: string): PlayerState => {
  const next: Record<string, unknown> = { ...base };
  const bad = (k: string) => new StorageError(`${where}: field ${k} of player ${d.playerId}'s delta does not decode`);
  for (const [k, v] of Object.entries(d.set)) {
    const codec = STATE_FIELDS[k];
    const decoded = codec?.decode(v);
    if (!decoded || decoded._tag === 'Left') throw bad(k);
    next[k] = decoded.right;
  }
  for (const [k, ops] of Object.entries(d.edits ?? {})) {
    const codec = STATE_FIELDS[k];
    const old = (base as unknown as Record<string, unknown>)[k];
    const list =
      codec instanceof t.ArrayType && Array.isArray(old) && Array.isArray(ops)
        ? editedList(old, ops, codec.type as t.Mixed)
        : undefined;
    if (list === undefined) throw bad(k);
    next[k] = list;
  }
  return next as unknown as PlayerState;
};

/**
 * A list as an edit of the list it replaced, in JSON: `[from, count]` copies that
 * run of the old list's elements, an object is a new or changed element. A new
 * character in a list of 55 is a few hundred bytes where the list is ~12 kB.
 * Undefined when an element that changed is not an object (the list is then
 * written whole): a copy run is a list, so the two could not be told apart.
 */
export const listEdit = (xs: ReadonlyArray<unknown>, replaced: ReadonlyArray<unknown>): string | undefined => {
  const ops: string[] = [];
  let plain = true;
  walkRuns(
    xs,
    replaced,
    (from, count) => ops.push(`[${from},${count}]`),
    (i) => {
      const x = xs[i];
      if (x === null || typeof x !== 'object' || Array.isArray(x)) plain = false;
      else ops.push(changedJson(x));
    },
  );
  return plain ? `[${ops.join(',')}]` : undefined;
};
