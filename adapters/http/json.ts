// Answers encoded with the JSON of shared views kept by identity (core/views/shared.ts):
// an unchanged list (a player's characters, a gacha's published rates) is encoded
// once and then reused, where JSON.stringify would walk it on every answer.
// The output is byte for byte what JSON.stringify gives.
import { isShared } from '../../core/view.js';

const known = new WeakMap<object, string>();

const part = (v: unknown): string => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  const cached = known.get(v);
  if (cached !== undefined) return cached;
  const keep = isShared(v);
  // Lists are walked (their elements may be shared); other objects go to JSON.stringify whole.
  let json: string;
  if (Array.isArray(v)) json = `[${v.map(part).join(',')}]`;
  else if (!keep) return JSON.stringify(v) ?? 'null';
  else json = JSON.stringify(v) ?? 'null';
  if (keep) known.set(v, json);
  return json;
};

/** The JSON of an answer's body (a plain object); its values may be shared views. */
export const answerJson = (body: Readonly<Record<string, unknown>>): string => {
  const parts: string[] = [];
  for (const k of Object.keys(body)) {
    const v = body[k];
    // As JSON.stringify: properties that have no JSON form are left out.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(k)}:${part(v)}`);
  }
  return `{${parts.join(',')}}`;
};
