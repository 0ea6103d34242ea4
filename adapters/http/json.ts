// Answers encoded with the JSON of shared views kept by identity (core/views/never-mutated.ts):
// a gacha's published rates, the same for every player, are encoded once and reused,
// where JSON.stringify would walk them on every answer. The output is byte for byte
// what JSON.stringify gives. A player's own views (an unchanged character, a present)
// are kept too when ANSWER_CACHE_MB allows: two generations of at most that many MB
// each. Off by default: 1,000 players in use need ~20 MB of it (with V8's headroom,
// ~50 MB resident), a smaller bound thrashes, and side by side it did not pay for
// itself (docs/performance.md, memory, sixth look).
import { isCommon, isShared, keepPlayerViews } from '../../core/view.js';
import { keptPayloadJson } from '../storage/kept-answer-json.js';

let keepBytes = 0;
/** The JSON of views every player is shown (master data's): few, and kept as long as they live. */
const commonJson = new WeakMap<object, string>();
let young = new Map<object, string>();
let old = new Map<object, string>();
let youngBytes = 0;

/**
 * Bounds the kept JSON of players' views (process-wide, set once at start-up:
 * ANSWER_CACHE_MB): two generations of at most `bytes` each; 0 keeps none, and the
 * core then neither keeps nor marks players' views (keepPlayerViews). The bench's
 * 1,000 players' views take ~20 MB: below that, reads re-encode (docs/performance.md).
 */
export const setAnswerCacheBytes = (bytes: number): void => {
  keepBytes = bytes;
  young = new Map();
  old = new Map();
  youngBytes = 0;
  keepPlayerViews(bytes > 0);
};

/**
 * V8's JSON.stringify returns a rope of the parts it wrote (parts of growing size):
 * kept as is, each answer part holds its cons cells and fragment headers, ~8 MB of
 * live heap at 1,000 players in use. Converting a string to a number flattens it in
 * place first (the trick of the flatstr package); the cons cell then points at one
 * flat copy, and the collector short-cuts it.
 */
const flatten = (s: string): string => {
  Number(s);
  return s;
};

const keep = (v: object, json: string): void => {
  if (keepBytes === 0) return;
  if (youngBytes + json.length > keepBytes) {
    old = young;
    young = new Map();
    youngBytes = 0;
  }
  young.set(v, json);
  youngBytes += json.length;
};

const known = (v: object): string | undefined => {
  const y = young.get(v);
  if (y !== undefined) return y;
  const o = old.get(v);
  if (o !== undefined) keep(v, o);
  return o;
};

const part = (v: unknown): string => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (isCommon(v)) {
    let json = commonJson.get(v);
    if (json === undefined) {
      json = flatten(JSON.stringify(v) ?? 'null');
      commonJson.set(v, json);
    }
    return json;
  }
  // Nothing of a player's is kept: V8's own JSON.stringify walks the rest fastest.
  if (keepBytes === 0) return JSON.stringify(v) ?? 'null';
  // Only shared views are ever kept: others skip the lookups.
  const shared = isShared(v);
  if (shared) {
    const cached = known(v);
    if (cached !== undefined) return cached;
  }
  // Lists are walked (their elements may be shared); other objects go to JSON.stringify whole.
  const json = Array.isArray(v) ? `[${v.map(part).join(',')}]` : (JSON.stringify(v) ?? 'null');
  if (shared) keep(v, flatten(json));
  return json;
};

/**
 * The JSON of an answer's body (a plain object); its values may be shared views.
 * `head`: members already written as JSON ('"a":1,"b":2'), put first.
 * One join of every piece gives one flat string: a join inside a template gave a rope,
 * which Koa's Buffer.byteLength then flattened into a second copy of the ~10 kB answer.
 */
export const answerJson = (body: Readonly<Record<string, unknown>>, head?: string): string => {
  const hasHead = head !== undefined && head !== '';
  // A keyed write's payload, encoded by the commit that kept it: its members after the head.
  const kept = keptPayloadJson(body);
  if (kept !== undefined) {
    if (!hasHead) return kept;
    return kept === '{}' ? `{${head}}` : ['{', head, ',', kept.slice(1)].join('');
  }
  const pieces: string[] = ['{'];
  let sep = '';
  if (hasHead) {
    pieces.push(head);
    sep = ',';
  }
  for (const k of Object.keys(body)) {
    const v = body[k];
    // As JSON.stringify: properties that have no JSON form are left out.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    pieces.push(sep, JSON.stringify(k), ':', part(v));
    sep = ',';
  }
  pieces.push('}');
  return pieces.join('');
};
