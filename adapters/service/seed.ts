// Seeds are derived outside the core from a server secret, the player and the
// state's version: the same request on the same state draws the same, on any server.
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

// The secret as a key object, made once: an HMAC given the string imports it on every call.
let last: { readonly secret: string; readonly key: KeyObject } | undefined;
const keyOf = (secret: string): KeyObject => {
  if (last?.secret !== secret) last = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return last.key;
};

export const deriveSeed = (secret: string, ...parts: ReadonlyArray<string | number>): string =>
  createHmac('sha256', keyOf(secret)).update(parts.join(':')).digest('hex');
