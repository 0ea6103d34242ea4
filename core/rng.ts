// The only module that imports seedrandom. A reducer receives an Rng made from a
// seed derived outside the core, so the same request on the same state draws the same.
import seedrandom from 'seedrandom';

export interface Rng {
  /** Uniform float in [0, 1). */
  readonly next: () => number;
  /** Uniform integer in [0, n). */
  readonly int: (n: number) => number;
}

export const rngFromSeed = (seed: string): Rng => {
  const prng = seedrandom.alea(seed);
  const next = (): number => prng.double();
  return { next, int: (n) => Math.floor(next() * n) };
};

/** The same Rng as rngFromSeed(seed()), made on first use: most operations draw nothing. */
export const lazyRng = (seed: () => string): Rng => {
  let rng: Rng | undefined;
  const get = () => (rng ??= rngFromSeed(seed()));
  return { next: () => get().next(), int: (n) => get().int(n) };
};

/**
 * Picks one entry by integer weight. Entries are an ordered array, never an
 * object's keys, so the same seed picks the same entry everywhere.
 */
export const pickWeighted = <T extends { readonly weight: number }>(rng: Rng, entries: ReadonlyArray<T>): T => {
  let total = 0;
  for (const e of entries) total += e.weight;
  if (total <= 0) throw new RangeError('pickWeighted: no positive weight');
  let r = rng.int(total);
  for (const e of entries) {
    if (r < e.weight) return e;
    r -= e.weight;
  }
  // Unreachable: r < total.
  throw new RangeError('pickWeighted: out of range');
};

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** An uppercase code of letters and digits (no 0/O/1/I to keep it readable aloud). */
export const randomCode = (rng: Rng, length: number): string => {
  let s = '';
  for (let i = 0; i < length; i++) s += CODE_ALPHABET[rng.int(CODE_ALPHABET.length)];
  return s;
};
