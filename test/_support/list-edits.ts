// Random edits of a character list, as operations make them: appends, inserts,
// changes in place and removals (shared by the tests of what is derived from a
// list by walking it against the list it replaced).
import fc from 'fast-check';
import type { OwnedCharacter } from '../../core/state.js';
import { newCharacter } from '../../core/shared/grant.js';
import { NOW } from './core.js';

export type Edit =
  | { kind: 'append' }
  | { kind: 'change'; at: number }
  | { kind: 'remove'; at: number; count: number }
  | { kind: 'insert'; at: number };

/** The list after one edit: a new array, the untouched elements the very same objects. */
export const edit = (xs: ReadonlyArray<OwnedCharacter>, e: Edit, id: number): OwnedCharacter[] => {
  const at = xs.length === 0 ? 0 : 'at' in e ? e.at % xs.length : 0;
  switch (e.kind) {
    case 'append':
      return [...xs, newCharacter(id, 1000 + id, NOW + id * 1000)];
    case 'insert':
      return [...xs.slice(0, at), newCharacter(id, 1000 + id, NOW), ...xs.slice(at)];
    case 'change':
      return xs.length === 0 ? [...xs] : xs.map((x, i) => (i === at ? { ...x, level: x.level + 1 } : x));
    case 'remove':
      return [...xs.slice(0, at), ...xs.slice(at + e.count)];
  }
};

export const anEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constant<Edit>({ kind: 'append' }),
  fc.nat(40).map((at): Edit => ({ kind: 'change', at })),
  fc.record({ at: fc.nat(40), count: fc.integer({ min: 1, max: 3 }) }).map((r): Edit => ({ kind: 'remove', ...r })),
  fc.nat(40).map((at): Edit => ({ kind: 'insert', at })),
);

/** Rounds of edits, each round one or more edits (an operation's change). */
export const editRounds = fc.array(fc.array(anEdit, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });

/** A list of `n` characters to start from. */
export const characters = (n: number): OwnedCharacter[] =>
  Array.from({ length: n }, (_, i) => newCharacter(i + 1, 100 + i, NOW - i * 60_000));
