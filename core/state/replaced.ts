// A list against the list it replaced, element by element: an update keeps the
// elements it did not change (by identity) and the order, so the two lists are
// walked side by side, stepping over one removed element at a time. Used to
// reuse what was derived from the old list (its views, its hashes, its journal).

/**
 * Calls `each(i, j)` for every element of `xs` in order: `j` is the index in
 * `replaced` of the very same element, or -1 when it is new or changed in place.
 */
export const walkReplaced = <T>(
  xs: ReadonlyArray<T>,
  replaced: ReadonlyArray<T>,
  each: (i: number, j: number) => void,
): void => {
  let j = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (replaced[j] === x) each(i, j++);
    else if (replaced[j + 1] === x) {
      each(i, j + 1);
      j += 2;
    } else {
      each(i, -1);
      // A list that did not grow had it changed in place: step over the old one too.
      if (replaced.length >= xs.length) j++;
    }
  }
};

/**
 * The same walk told in runs: `kept(from, count)` for each longest run of elements
 * still there in the same order (`replaced[from … from + count − 1]`), and
 * `fresh(i)` for each new or changed element, in the order of `xs`.
 */
export const walkRuns = <T>(
  xs: ReadonlyArray<T>,
  replaced: ReadonlyArray<T>,
  kept: (from: number, count: number) => void,
  fresh: (i: number) => void,
): void => {
  let from = -1;
  let count = 0;
  walkReplaced(xs, replaced, (i, j) => {
    if (j >= 0 && count > 0 && j === from + count) {
      count++;
      return;
    }
    if (count > 0) kept(from, count);
    if (j >= 0) {
      from = j;
      count = 1;
    } else {
      count = 0;
      fresh(i);
    }
  });
  if (count > 0) kept(from, count);
};
