// What every store purges of a deleted player besides its state (docs/privacy.md),
// as functions of what it keeps: a replay-log entry the player made keeps its frame
// (seq, operation, instant, seed, players, results) with every string of its request
// emptied and the hashes of its secrets gone; a kept answer that showed the player
// (a friend list, a search) keeps its shape with the player's name and friend code
// emptied. Each function answers what it was given when there is nothing to purge.
import type { IdempotencyRecord } from './storage.js';
import type { Ring } from './kept-answers.js';
import type { StoredLogEntry } from './replay-log.js';

/** A value with every string emptied: numbers, booleans, nulls and the shape kept. */
export const blankStrings = (v: unknown): unknown => {
  if (typeof v === 'string') return '';
  if (Array.isArray(v)) return v.map(blankStrings);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, blankStrings(x)]));
  return v;
};

/** Fields of a pre-issue-16 entry (its own kinds) that held the player's device, name or secrets. */
const LEGACY_PERSONAL = ['uuid', 'name', 'tokenHash', 'moveCode', 'movePasswordHash'];

/**
 * A log entry with what identifies a deleted player emptied, when one of `ids` made it
 * (the entry's player): its request's strings (a uuid, a name, a hash, a party's name),
 * the hashes of the secrets issued or tried. Its keys stay in their order, so the line
 * it is written as is never longer than the entry's own.
 */
export const scrubEntry = (e: StoredLogEntry, ids: ReadonlySet<number>): StoredLogEntry => {
  if (!ids.has(e.playerId)) return e;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (e.kind === 'op') {
      if (k === 'issued' || k === 'movePasswordHash') continue;
      out[k] = k === 'request' ? blankStrings(v) : v;
    } else out[k] = LEGACY_PERSONAL.includes(k) && typeof v === 'string' ? '' : v;
  }
  return out as unknown as StoredLogEntry;
};

/** Whether an entry holds anything scrubEntry empties. */
export const needsScrub = (e: StoredLogEntry, ids: ReadonlySet<number>): boolean =>
  ids.has(e.playerId) && JSON.stringify(scrubEntry(e, ids)) !== JSON.stringify(e);

/** A value with, in every object that names one of `ids` as its playerId, the name and friend code emptied. */
const unshown = (v: unknown, ids: ReadonlySet<number>): unknown => {
  if (Array.isArray(v)) return v.map((x) => unshown(x, ids));
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  const named = typeof o['playerId'] === 'number' && ids.has(o['playerId']);
  return Object.fromEntries(
    Object.entries(o).map(([k, x]) => [
      k,
      named && (k === 'name' || k === 'myCode') && typeof x === 'string' ? '' : unshown(x, ids),
    ]),
  );
};

/** A kept answer without the deleted players' names and friend codes (the same record when it showed none). */
export const scrubAnswer = (r: IdempotencyRecord, ids: ReadonlySet<number>): IdempotencyRecord => {
  const answer = unshown(r.answer, ids) as IdempotencyRecord['answer'];
  return JSON.stringify(answer) === JSON.stringify(r.answer) ? r : { ...r, answer };
};

/** A ring of kept answers scrubbed (the same ring when nothing in it showed them). */
export const scrubRing = (ring: Ring, ids: ReadonlySet<number>): Ring => {
  const out = ring.map(([k, r]): readonly [string, IdempotencyRecord] => [k, scrubAnswer(r, ids)]);
  return out.every(([, r], i) => r === ring[i]?.[1]) ? ring : out;
};
