// Operators' passwords, kept as a slow salted hash: scrypt (node:crypto), its cost in
// the stored string so that it can be raised later without losing the old ones.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const COST: ScryptOptions = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_BYTES = 32;

const derive = (password: string, salt: Buffer, o: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, o, (e, key) => (e ? reject(e) : resolve(key))),
  );

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
};

export const checkPassword = async (password: string, stored: string): Promise<boolean> => {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return key.length === want.length && timingSafeEqual(key, want);
};
