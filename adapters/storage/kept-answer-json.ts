// A kept answer's JSON as PostgreSQL's commit stores it (an Idempotency-Key's record), with
// its payload encoded once: the payload's JSON is kept by the payload's identity, and the
// HTTP side, which answers the same payload right after the commit (adapters/http/json.ts
// answerJson), takes it from here rather than encoding the ~10 kB again.
import type { IdempotencyRecord } from './storage.js';

/** Weak: a payload's JSON leaves with its payload, once its answer is written. */
const payloads = new WeakMap<object, string>();

/** JSON.stringify(record), byte for byte; a success's payload JSON is kept for its answer. */
export const recordJson = (record: IdempotencyRecord): string => {
  if (!('ok' in record.answer)) return JSON.stringify(record);
  const ok = record.answer.ok;
  const payload = JSON.stringify(ok);
  payloads.set(ok, payload);
  const withheld = record.withheld === undefined ? '' : `,"withheld":${JSON.stringify(record.withheld)}`;
  return `{"requestHash":${JSON.stringify(record.requestHash)},"answer":{"ok":${payload}},"createdAt":${JSON.stringify(record.createdAt)}${withheld}}`;
};

/** A payload's JSON (JSON.stringify's) as a kept answer's encoding left it, if one did. */
export const keptPayloadJson = (payload: object): string | undefined => payloads.get(payload);
