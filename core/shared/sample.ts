// Samples that must be the same for the same input (the game-data preview's players).

/** At most `n` of `xs`, evenly spread (all of them when there are fewer). */
export const evenly = <T>(xs: ReadonlyArray<T>, n: number): T[] =>
  xs.length <= n ? [...xs] : Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)] as T);
