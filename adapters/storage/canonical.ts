// Canonical JSON: a value's JSON with every object's keys sorted, so the same data
// gives the same bytes whatever order its keys were built in (a state read back
// from a snapshot is decoded with the group defaults first). Snapshots and journal
// records are written in it, and a state's hash (what the replay log records and a
// replay compares) is taken of it. The JSON of a state's parts is kept by their
// identity: states are never mutated (core/views/never-mutated.ts), and an update
// keeps the parts it did not change.
import { createHash, hash } from 'node:crypto';
import { groupDefaults, type PlayerState } from '../../core/state.js';
import { walkRuns } from '../../core/state/replaced.js';

/** An array index as an object key (0 … 2^32 − 2, written canonically). */
const isIndex = (k: string): boolean => /^(0|[1-9]\d*)$/.test(k) && Number(k) < 4_294_967_295;

/**
 * Sorted key orders (as an object re-built in sorted order lists them), each key
 * with its JSON prefix, by an object's own key list: states share a few shapes.
 * Found by the first key, then compared key by key: a signature string built and
 * hashed for every object serialised cost more than the rest of its writing.
 */
type Order = ReadonlyArray<readonly [string, string]>;
const orders = new Map<string, Array<{ readonly keys: ReadonlyArray<string>; readonly order: Order }>>();
let orderCount = 0;
const MAX_ORDERS = 256;
const sameKeys = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
const keyOrder = (o: Record<string, unknown>): Order => {
  const keys = Object.keys(o);
  // Stryker disable next-line StringLiteral: equivalent (the head only picks the list to search; sameKeys compares whole key lists, so any name for the empty list's head finds the same orders)
  const head = keys.length === 0 ? '' : (keys[0] as string);
  const known = orders.get(head);
  if (known !== undefined) for (const c of known) if (sameKeys(c.keys, keys)) return c.order;
  // Array-index keys come first, by value. Computed, not re-built in an object: a key
  // "__proto__" would set the prototype instead.
  const sorted = [...keys].sort();
  const order = [
    ...sorted.filter(isIndex).sort((a, b) => Number(a) - Number(b)),
    ...sorted.filter((k) => !isIndex(k)),
  ].map((k) => [k, `${JSON.stringify(k)}:`] as const);
  // Records with keys made from data (counters) make an order each: past the bound, they are not kept.
  if (orderCount < MAX_ORDERS) {
    orderCount++;
    if (known !== undefined) known.push({ keys, order });
    else orders.set(head, [{ keys, order }]);
  }
  return order;
};

/**
 * A state's JSON with every object's keys sorted: the same data gives the same
 * bytes whatever order its keys were built in (a state read back from a
 * snapshot is decoded with the group defaults first).
 */
const sortedJson = (v: unknown): string => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  const withJson = v as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return sortedJson(withJson.toJSON());
  // Built by join, which gives one flat string: concatenation gives ropes, and these are kept.
  if (Array.isArray(v))
    return ['[', v.map((x: unknown) => (noJson(x) ? 'null' : sortedJson(x))).join(','), ']'].join('');
  const o = v as Record<string, unknown>;
  const parts: string[] = [];
  for (const [k, prefix] of keyOrder(o)) {
    const x = o[k];
    if (!noJson(x)) parts.push(prefix, sortedJson(x), ',');
  }
  parts.pop();
  return ['{', ...parts, '}'].join('');
};
/** What JSON leaves out of objects (and writes as null in lists). */
const noJson = (x: unknown): boolean => x === undefined || typeof x === 'function' || typeof x === 'symbol';

/**
 * A state's top-level parts (objects that are not lists) by identity: states are
 * never mutated and an update keeps the parts it did not change. Weak: a part
 * leaves with its last state. List elements are not kept here: their JSON cost
 * more memory than the states themselves (~38 kB a seasoned player); a commit
 * writes and hashes only the elements that changed (listEdit, listHash).
 */
const partJson = new WeakMap<object, string>();
const partOf = (v: unknown): string => {
  // Its callers leave out what JSON leaves out (noJson) before they come here.
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  let json = partJson.get(v);
  if (json === undefined) {
    json = sortedJson(v);
    partJson.set(v, json);
  }
  return json;
};

/**
 * The JSON of the elements a commit changed, bounded and strong: its state hash
 * and then its journal record both need them, one right after the other.
 */
const RECENT_ELEMENTS = 1024;
let recentElements = new Map<unknown, string>();
export const changedJson = (x: unknown): string => {
  let json = recentElements.get(x);
  if (json === undefined) {
    json = sortedJson(x);
    if (recentElements.size >= RECENT_ELEMENTS) recentElements = new Map();
    recentElements.set(x, json);
  }
  return json;
};

export const canonicalJson = (s: unknown): string => {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return sortedJson(s);
  const o = s as Record<string, unknown>;
  const parts: string[] = [];
  for (const [k, prefix] of keyOrder(o)) {
    const v = o[k];
    if (noJson(v)) continue;
    parts.push(prefix + (Array.isArray(v) ? sortedJson(v) : partOf(v)));
  }
  return `{${parts.join(',')}}`;
};

/** List elements a piece of canonicalPieces: a seasoned player's 3,000-record draw history is 15 pieces. */
const ELEMENTS_A_PIECE = 200;

/**
 * canonicalJson's text in pieces, long lists a few hundred elements at a time: a
 * checkpoint writes a seasoned player's ~600 kB snapshot a batch at a time, with the
 * event loop running between batches (one canonicalJson held it for tens of ms).
 */
export function* canonicalPieces(s: object): Generator<string> {
  const o = s as Record<string, unknown>;
  let sep = '{';
  for (const [k, prefix] of keyOrder(o)) {
    const v = o[k];
    if (noJson(v)) continue;
    if (Array.isArray(v) && v.length > ELEMENTS_A_PIECE) {
      yield `${sep}${prefix}[`;
      for (let i = 0; i < v.length; i += ELEMENTS_A_PIECE) {
        const part: string[] = [];
        for (let j = i; j < Math.min(v.length, i + ELEMENTS_A_PIECE); j++)
          part.push(noJson(v[j]) ? 'null' : sortedJson(v[j]));
        yield (i === 0 ? '' : ',') + part.join(',');
      }
      yield ']';
    } else {
      yield sep + prefix + (Array.isArray(v) ? sortedJson(v) : partOf(v));
    }
    sep = ',';
  }
  yield sep === '{' ? '{}' : '}';
}

/** Some fields of a state as a canonical JSON object (a journal's delta record): the same parts, the same bytes. */
export const canonicalFields = (s: Readonly<Record<string, unknown>>, fields: ReadonlyArray<string>): string => {
  const picked: Record<string, unknown> = {};
  for (const k of fields) picked[k] = s[k];
  return canonicalJson(picked);
};

/**
 * A list's hash: the sha256 of its elements' digests (the first 16 bytes of the
 * sha256 of each element's canonical JSON) one after another. Kept by the list's
 * identity with the digests, so a list that replaced one (an update's) hashes only
 * its new elements; 16 bytes an element is what stays in memory.
 */
interface ListHash {
  readonly digests: string;
  readonly hex: string;
}
const DIGEST = 16;
const listHashes = new WeakMap<ReadonlyArray<unknown>, ListHash>();
// crypto.hash hashes a string's UTF-8 bytes in one call (half the time of a Hash object);
// the digests are binary, so their concatenation is hashed as latin1 bytes.
const digestOf = (json: string): string => hash('sha256', json, 'binary').slice(0, DIGEST);
/** Every empty list's (a state has ~15, each a list of its own): one, not ~130 bytes each. */
const EMPTY_HEX = createHash('sha256').update('', 'latin1').digest('hex');
// Stryker disable next-line StringLiteral: equivalent (its digests are never read: it is not kept by any list, so no later list reuses them)
const EMPTY_LIST: ListHash = { digests: '', hex: EMPTY_HEX };
const listHash = (xs: ReadonlyArray<unknown>, replaced: ReadonlyArray<unknown> | undefined): ListHash => {
  if (xs.length === 0) return EMPTY_LIST;
  const known = listHashes.get(xs);
  if (known !== undefined) return known;
  const prev = replaced === undefined ? undefined : listHashes.get(replaced);
  const parts: string[] = [];
  if (prev === undefined || replaced === undefined) {
    for (let i = 0; i < xs.length; i++) parts.push(digestOf(sortedJson(xs[i])));
  } else {
    // Runs of elements still there take their digests from the old list in one slice.
    walkRuns(
      xs,
      replaced,
      (from, count) => parts.push(prev.digests.slice(from * DIGEST, (from + count) * DIGEST)),
      (i) => parts.push(digestOf(changedJson(xs[i]))),
    );
  }
  const digests = parts.join('');
  const h = { digests, hex: createHash('sha256').update(digests, 'latin1').digest('hex') };
  listHashes.set(xs, h);
  return h;
};

/**
 * The state's fields when the replay log began (d21c137), always hashed. A field a
 * group adds to the state later is hashed only once it leaves its default: a state
 * read back from before the field existed gets the default, and the hash an older
 * log entry recorded still matches its replay (test/replay/legacy.test.ts).
 */
const HASHED_FROM_THE_START = new Set([
  // No group gives these a default, so they are hashed with or without this list; they are
  // in it so that a default given one later does not drop them from the hash.
  // Stryker disable StringLiteral: equivalent (atItsDefault is false for each, listed or not: no group default, or, for battleParties, a default list that is not empty, which atItsDefault never takes for at it)
  'schema',
  'version',
  'playerId',
  'name',
  'myCode',
  'createdAt',
  'lastLoginAt',
  'account',
  'level',
  'exp',
  'stamina',
  'gold',
  'gem',
  'paidGem',
  'kirara',
  'limitAdds',
  'nextManagedId',
  'items',
  'characters',
  'weapons',
  'facilities',
  'roomObjects',
  'presents',
  'received',
  'gachaStats',
  'gachaHistory',
  'move',
  'tutorial',
  'counters',
  'battleParties',
  // Stryker restore StringLiteral
  // These have a group default (groups added before the log began): hashed at it too.
  'supportParties',
  'abilityTrees',
  'trainings',
  'tradeCounts',
  'ownWeaponsReceived',
  'rooms',
  'townLayout',
  'contentRooms',
  'friends',
  'achievements',
  'displayedAchievementId',
  'activeQuest',
  'questRecords',
  'chests',
  'offers',
  'offerCompletions',
]);
const DEFAULT_JSON: ReadonlyMap<string, string> = new Map(
  Object.entries(groupDefaults).map(([k, v]) => [k, sortedJson(v)]),
);
const atItsDefault = (k: string, v: unknown): boolean => {
  const d = DEFAULT_JSON.get(k);
  // Stryker disable next-line ConditionalExpression: equivalent (without it, a field with no default is not at it below either: its list is not '[]', its JSON is a string)
  if (d === undefined) return false;
  if (Array.isArray(v)) return v.length === 0 && d === '[]';
  return partOf(v) === d;
};

/**
 * What a replay compares: the sha256 of the state's canonical form, its fields in
 * key order as canonicalJson writes them, except that each list is given by its
 * hash (listHash). `before`, the state this one replaced, is a hint: its lists'
 * digests are reused for the elements still there; the hash is the same without it.
 */
export const stateHash = (s: PlayerState, before?: PlayerState): string => {
  const o = s as unknown as Record<string, unknown>;
  const was = before as unknown as Record<string, unknown> | undefined;
  const parts: string[] = [];
  for (const [k, prefix] of keyOrder(o)) {
    const v = o[k];
    if (noJson(v)) continue;
    if (!HASHED_FROM_THE_START.has(k) && atItsDefault(k, v)) continue;
    if (!Array.isArray(v)) {
      parts.push(prefix + partOf(v));
      continue;
    }
    const old = was?.[k];
    parts.push(`${prefix}#${listHash(v, Array.isArray(old) ? old : undefined).hex}`);
  }
  return hash('sha256', `{${parts.join(',')}}`);
};
