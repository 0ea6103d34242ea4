// Seeds are derived outside the core from a server secret, the player and the
// state's version: the same request on the same state draws the same, on any server.
import { createHmac } from 'node:crypto';

export const deriveSeed = (secret: string, ...parts: ReadonlyArray<string | number>): string =>
  createHmac('sha256', secret).update(parts.join(':')).digest('hex');
