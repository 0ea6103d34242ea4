// A player's row as PostgreSQL storage keeps it: a base state and the delta rows
// written since (encoded for commit_v3, decoded and applied on load), when a commit
// folds them into a whole state, and the index keys a commit changes.
import * as t from 'io-ts';
import { decodeState, indexKeysOf, INDEX_NAMES, type PlayerState } from '../../core/state.js';
import { applyDelta, deltaJson, journaled } from './journal.js';
import { decodeStored, StorageError } from './storage.js';

/** A delta row as commit_v3 stores it (journal-records.ts deltaJson); applyDelta decodes each field with the state's codecs. */
const DeltaRow = t.intersection(
  [
    t.type({ playerId: t.number, base: t.number, set: t.UnknownRecord }),
    t.partial({ edits: t.record(t.string, t.array(t.unknown)) }),
  ],
  'DeltaRow',
);

/**
 * What a state's row holds beyond its base: the deltas written since (count and
 * bytes) and the base's bytes. A commit folds (writes the state whole) once the
 * deltas' bytes reach the base's, so a write costs at most about twice what it
 * changed, amortised, and a load reads at most about twice the state; or past
 * FOLD_AFTER deltas, which bounds the work of a load.
 */
export interface Chain {
  readonly deltas: number;
  readonly bytes: number;
  readonly baseBytes: number;
}
const FOLD_AFTER = 1000;
const folds = (c: Chain): boolean => c.deltas + 1 >= FOLD_AFTER || c.bytes >= c.baseBytes;

/** A row as the load statement reads it: the base as text (its length is the fold's measure), and the deltas since it as a json array's text, in order (null: none). */
export interface StoredRow {
  readonly state: string;
  readonly deltas: string | null;
}

/** A player's current state from its row: the base with its deltas applied, and what the row holds beyond the base. */
export const decodeRow = (playerId: number, row: StoredRow): { state: PlayerState; chain: Chain } => {
  let base: unknown;
  try {
    base = JSON.parse(row.state);
  } catch {
    throw new StorageError(`player ${playerId}'s stored state does not decode`);
  }
  const d = decodeState(base);
  if (d._tag === 'Left') throw new StorageError(`player ${playerId}'s stored state does not decode`);
  let state = d.right;
  let deltas = 0;
  if (row.deltas !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.deltas);
    } catch {
      throw new StorageError(`player ${playerId}'s deltas do not decode`);
    }
    const list = decodeStored(t.array(DeltaRow), parsed, `player ${playerId}'s deltas`);
    for (const x of list) {
      // A whole state written by a process before migration 5 leaves older deltas behind.
      if (x.base < state.version) continue;
      if (x.base !== state.version || x.playerId !== playerId)
        throw new StorageError(
          `player ${playerId}'s delta is from version ${x.base}, the state is at ${state.version}`,
        );
      state = applyDelta(state, x, `player ${playerId}'s delta row`);
      deltas++;
    }
  }
  return { state, chain: { deltas, bytes: row.deltas === null ? 0 : row.deltas.length, baseBytes: row.state.length } };
};

/**
 * What a commit writes of a state: the fields it changed since `before` (a delta row)
 * when this process knows the state's row holds `before` and the deltas do not yet
 * call for a fold; otherwise the state whole. `chain`: what the row holds beyond its
 * base, where this process knows it (undefined: written whole).
 */
export const encodeRow = (
  state: PlayerState,
  before: PlayerState | undefined,
  chain: Chain | undefined,
): { json: string; delta: boolean; chain: Chain } => {
  if (before !== undefined && chain !== undefined && !folds(chain)) {
    const j = journaled(state, before);
    if (j.kind === 'delta') {
      const json = deltaJson(state, before, j.fields);
      return {
        json,
        delta: true,
        chain: { deltas: chain.deltas + 1, bytes: chain.bytes + json.length, baseBytes: chain.baseBytes },
      };
    }
  }
  const json = JSON.stringify(state);
  return { json, delta: false, chain: { deltas: 0, bytes: 0, baseBytes: json.length } };
};

/** The index keys one commit deletes and inserts (only those that changed, where the state before is known). */
export interface KeyChanges {
  readonly replace: number[];
  readonly delNames: string[];
  readonly delKeys: string[];
  readonly insNames: string[];
  readonly insKeys: string[];
  readonly insOwners: number[];
}

export const keyChanges = (
  players: ReadonlyArray<{ state: PlayerState; before: PlayerState | undefined; isNew: boolean }>,
): KeyChanges => {
  const c: KeyChanges = { replace: [], delNames: [], delKeys: [], insNames: [], insKeys: [], insOwners: [] };
  for (const { state, before, isNew } of players) {
    const now = indexKeysOf(state);
    const was = before ? indexKeysOf(before) : undefined;
    // A player whose state before is not known here: its keys are replaced whole.
    if (before === undefined && !isNew) c.replace.push(state.playerId);
    for (const n of INDEX_NAMES) {
      // Stryker disable next-line ArrayDeclaration: equivalent (a list of one made-up key only deletes that key where the state before is unknown, and no key has Stryker's text: uuids are UUIDs, my and move codes are generated)
      const had = new Set(was?.[n] ?? []);
      const has = new Set(now[n]);
      for (const k of had)
        if (!has.has(k)) {
          c.delNames.push(n);
          c.delKeys.push(k);
        }
      for (const k of has)
        if (!had.has(k)) {
          c.insNames.push(n);
          c.insKeys.push(k);
          c.insOwners.push(state.playerId);
        }
    }
  }
  return c;
};
