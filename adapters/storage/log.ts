// The replay log: one entry per committed state change, holding exactly the
// inputs needed to run it again (operation, request, seed, now, master data's
// hash) and the hash of every resulting state, so a replay can say where it
// first differs. Entries are committed atomically with the states they made.
import { createHash, hash } from 'node:crypto';
import type { Grant } from '../../core/master/common.js';
import type { PlayerState } from '../../core/state.js';
import { walkRuns } from '../../core/state/replaced.js';

/** A state a log entry produced: its player, version and stateHash. */
export interface LogResult {
  readonly playerId: number;
  readonly version: number;
  readonly stateHash: string;
}

interface LogBase {
  /** Position in the whole log (1, 2, …), given by the storage when it commits the entry. */
  readonly seq?: number;
  /** The instant the service read once for the request (epoch ms). */
  readonly at: number;
  /** sha256 of the master data the entry ran with (see adapters/master/load.ts). */
  readonly masterHash: string;
  /** The players whose states changed, in results order. */
  readonly playerIds: ReadonlyArray<number>;
  readonly results: ReadonlyArray<LogResult>;
}

/** A table operation: the player, its decoded request, the seed and the other players it named (null: none existed). */
export interface OpEntry extends LogBase {
  readonly kind: 'op';
  readonly op: string;
  readonly playerId: number;
  readonly request: unknown;
  readonly seed: string;
  readonly others: ReadonlyArray<number | null>;
  /**
   * Set when the request carried a move password, which is never logged: the
   * request lacks it and this is the hash the state kept; a replay runs the
   * reducer with a stand-in password and puts this hash back.
   */
  readonly movePasswordHash?: string;
}

/** createPlayer's inputs, with the access token's hash instead of the token. */
export interface SignupEntry extends LogBase {
  readonly kind: 'signup';
  readonly playerId: number;
  readonly uuid: string;
  readonly platform: number;
  readonly name: string;
  readonly stepCode: number;
  readonly tokenHash: string;
  readonly seed: string;
}

/** A log-in (its token was checked when it ran; a replay only applies it). */
export interface LoginEntry extends LogBase {
  readonly kind: 'login';
  readonly playerId: number;
}

/** A move, kept even when it failed on a wrong password (the failure is counted); secrets only as hashes. */
export interface MoveSetEntry extends LogBase {
  readonly kind: 'moveSet';
  readonly playerId: number;
  readonly moveCode: string;
  readonly uuid: string;
  readonly platform: number;
  readonly tokenHash: string;
  /** The password tried, hashed with the code's salt (as the state keeps the right one). */
  readonly movePasswordHash: string;
}

/** An operator's present to one player. */
export interface AdminPresentEntry extends LogBase {
  readonly kind: 'admin.present';
  readonly playerId: number;
  readonly grant: Grant;
  readonly meta: { readonly title: string; readonly message: string; readonly deadline: number | null };
}

export type LogEntry = OpEntry | SignupEntry | LoginEntry | MoveSetEntry | AdminPresentEntry;

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
  const head = keys.length === 0 ? '' : keys[0] as string;
  const known = orders.get(head);
  if (known !== undefined) for (const c of known) if (sameKeys(c.keys, keys)) return c.order;
  // Array-index keys come first, by value. Computed, not re-built in an object: a key
  // "__proto__" would set the prototype instead.
  const sorted = [...keys].sort();
  const order = [...sorted.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...sorted.filter((k) => !isIndex(k))]
    .map((k) => [k, `${JSON.stringify(k)}:`] as const);
  // Records with keys made from data (counters) make an order each: past the bound, they are not kept.
  if (orderCount < MAX_ORDERS) {
    orderCount++;
    if (known !== undefined) known.push({ keys, order }); else orders.set(head, [{ keys, order }]);
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
  if (Array.isArray(v)) return ['[', v.map((x: unknown) => (noJson(x) ? 'null' : sortedJson(x))).join(','), ']'].join('');
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
  if (v === null || typeof v !== 'object') return v === undefined || typeof v === 'function' ? 'null' : JSON.stringify(v);
  let json = partJson.get(v);
  if (json === undefined) { json = sortedJson(v); partJson.set(v, json); }
  return json;
};

/**
 * The JSON of the elements a commit changed, bounded and strong: its state hash
 * and then its journal record both need them, one right after the other.
 */
const RECENT_ELEMENTS = 1024;
let recentElements = new Map<unknown, string>();
const changedJson = (x: unknown): string => {
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
    if (v === undefined || typeof v === 'function') continue;
    parts.push(prefix + (Array.isArray(v) ? sortedJson(v) : partOf(v)));
  }
  return `{${parts.join(',')}}`;
};

/** Some fields of a state as a canonical JSON object (a journal's delta record): the same parts, the same bytes. */
export const canonicalFields = (s: Readonly<Record<string, unknown>>, fields: ReadonlyArray<string>): string => {
  const picked: Record<string, unknown> = {};
  for (const k of fields) picked[k] = s[k];
  return canonicalJson(picked);
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
  walkRuns(xs, replaced, (from, count) => ops.push(`[${from},${count}]`), (i) => {
    const x = xs[i];
    if (x === null || typeof x !== 'object' || Array.isArray(x)) plain = false;
    else ops.push(changedJson(x));
  });
  return plain ? `[${ops.join(',')}]` : undefined;
};

/**
 * A list's hash: the sha256 of its elements' digests (the first 16 bytes of the
 * sha256 of each element's canonical JSON) one after another. Kept by the list's
 * identity with the digests, so a list that replaced one (an update's) hashes only
 * its new elements; 16 bytes an element is what stays in memory.
 */
interface ListHash { readonly digests: string; readonly hex: string }
const DIGEST = 16;
const listHashes = new WeakMap<ReadonlyArray<unknown>, ListHash>();
// crypto.hash hashes a string's UTF-8 bytes in one call (half the time of a Hash object);
// the digests are binary, so their concatenation is hashed as latin1 bytes.
const digestOf = (json: string): string => hash('sha256', json, 'binary').slice(0, DIGEST);
const listHash = (xs: ReadonlyArray<unknown>, replaced: ReadonlyArray<unknown> | undefined): ListHash => {
  const known = listHashes.get(xs);
  if (known !== undefined) return known;
  const prev = replaced === undefined ? undefined : listHashes.get(replaced);
  const parts: string[] = [];
  if (prev === undefined || replaced === undefined) {
    for (let i = 0; i < xs.length; i++) parts.push(digestOf(sortedJson(xs[i])));
  } else {
    // Runs of elements still there take their digests from the old list in one slice.
    walkRuns(xs, replaced, (from, count) => parts.push(prev.digests.slice(from * DIGEST, (from + count) * DIGEST)),
      (i) => parts.push(digestOf(changedJson(xs[i]))));
  }
  const digests = parts.join('');
  const h = { digests, hex: createHash('sha256').update(digests, 'latin1').digest('hex') };
  listHashes.set(xs, h);
  return h;
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
    if (!Array.isArray(v)) { parts.push(prefix + partOf(v)); continue; }
    const old = was?.[k];
    parts.push(`${prefix}#${listHash(v, Array.isArray(old) ? old : undefined).hex}`);
  }
  return hash('sha256', `{${parts.join(',')}}`);
};

/** The request as logged (a move password left out) and, then, the password hash the state kept. */
export const redactForLog = (request: unknown, after: PlayerState): { request: unknown; movePasswordHash?: string } => {
  if (typeof request !== 'object' || request === null || !('password' in request)) return { request };
  const { password: _secret, ...rest } = request as Record<string, unknown>;
  return { request: rest, movePasswordHash: after.move?.passwordHash ?? '' };
};

/** The results of a log entry; `befores[i]`, the state `states[i]` replaced, is stateHash's hint. */
export const logResults = (states: ReadonlyArray<PlayerState>, befores: ReadonlyArray<PlayerState | undefined> = []): LogResult[] =>
  states.map((s, i) => ({ playerId: s.playerId, version: s.version, stateHash: stateHash(s, befores[i]) }));

/** Parses oplog bytes (one JSON entry a line); `good` is the offset after the last whole line (a torn tail is left out). */
export const parseLog = (buf: Buffer): { entries: LogEntry[]; good: number } => {
  const entries: LogEntry[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const line = buf.subarray(pos, nl).toString('utf8');
    try {
      if (line.trim() !== '') entries.push(JSON.parse(line) as LogEntry);
    } catch {
      break;
    }
    pos = nl + 1;
  }
  return { entries, good: pos };
};
