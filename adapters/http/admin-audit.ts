// What an operator write leaves behind, in the admin.action log line and the audit
// trail: the request and answer with long strings shortened and secrets left out, and
// the players the action named (the audit's player filter).
import { createHash } from 'node:crypto';

/** Longer strings (a published master file's text) are logged as their size and hash: the line says what, not all of it. */
const LOGGED_STRING_MAX = 1024;
/** Secrets (a password signing in or setting one, a token handed out) are never logged nor audited. */
const SECRET_KEYS = new Set(['password', 'token']);
export const forLog = (v: unknown): unknown =>
  typeof v === 'string' && v.length > LOGGED_STRING_MAX
    ? `(${v.length} characters, sha256 ${createHash('sha256').update(v).digest('hex').slice(0, 16)})`
    : Array.isArray(v)
      ? v.map(forLog)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_KEYS.has(k) ? '(secret)' : forLog(x)]))
        : v;

/** The players an action names (its path, its request): the audit's player filter. */
export const playersNamed = (params: Record<string, string | undefined>, request: unknown): number[] => {
  const r = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  const ids = [params['playerId'], r['playerId'], ...(Array.isArray(r['playerIds']) ? r['playerIds'] : [])]
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  return [...new Set(ids)];
};
