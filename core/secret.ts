// Hashes for secrets kept on the player: access tokens (random, high entropy:
// SHA-256 suffices) and move passwords (chosen by people: salted scrypt).
// Hashing is deterministic, so it keeps the core pure.
import { createHash, scryptSync, timingSafeEqual } from 'node:crypto';

export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

export const tokenHash = (token: string): string => sha256(`token:${token}`);

// A modest cost: a move is rare, and failed tries void the code after a few attempts.
const SCRYPT = { N: 4096, r: 8, p: 1 } as const;
export const passwordHash = (password: string, salt: string): string =>
  scryptSync(password, `move:${salt}`, 32, SCRYPT).toString('hex');

export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};
