// A commit hashes and journals only the list elements it changed, by walking each
// list against the one it replaced. Whatever the edit, the hash must equal the
// hash computed from scratch, and the journal's edit must rebuild the very list.
import test from 'ava';
import fc from 'fast-check';
import { canonicalJson, stateHash } from '../../adapters/storage/canonical.js';
import { listEdit } from '../../adapters/storage/journal.js';
import type { OwnedCharacter, PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { characters, edit, editRounds } from '../_support/list-edits.js';

/** The list an edit's JSON makes of the list it replaced (as a journal replay does, without the codecs). */
const rebuild = (replaced: ReadonlyArray<unknown>, json: string): unknown[] =>
  (JSON.parse(json) as unknown[]).flatMap((op) => {
    if (!Array.isArray(op)) return [op];
    const [from, count] = op as [number, number];
    return replaced.slice(from, from + count);
  });

test('stateHash given the state replaced equals the hash from scratch, after any edits of a list', (t) => {
  const base = freshPlayer();
  fc.assert(
    fc.property(editRounds, (rounds) => {
      let s: PlayerState = { ...base, characters: characters(12) };
      stateHash(s);
      let id = 100;
      for (const edits of rounds) {
        let next = s.characters;
        for (const e of edits) next = edit(next, e, id++);
        const after = { ...s, characters: next, version: s.version + 1 };
        // A copy of every list is new to the hash's tables: hashed from scratch.
        const fresh = Object.fromEntries(
          Object.entries(after).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]),
        ) as PlayerState;
        if (stateHash(after, s) !== stateHash(fresh)) return false;
        s = after;
      }
      return true;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('stateHash tells lists apart by any element, and by order', (t) => {
  const s = { ...freshPlayer(), characters: characters(5) };
  const h = stateHash(s);
  const [a, b, ...rest] = s.characters as [OwnedCharacter, OwnedCharacter, ...OwnedCharacter[]];
  t.not(stateHash({ ...s, characters: [b, a, ...rest] }, s), h, 'two elements swapped');
  t.not(stateHash({ ...s, characters: [a, { ...b, exp: b.exp + 1 }, ...rest] }, s), h, 'one field of one element');
  t.not(stateHash({ ...s, characters: [a, ...rest] }, s), h, 'one element fewer');
  t.is(stateHash({ ...s, characters: [a, b, ...rest] }, s), h, 'the same elements in a new list');
});

test('listEdit rebuilds the list from the one it replaced, copying the elements still there, after any edits', (t) => {
  fc.assert(
    fc.property(editRounds, (rounds) => {
      let xs = characters(12);
      let id = 100;
      for (const edits of rounds) {
        let next = xs;
        for (const e of edits) next = edit(next, e, id++);
        const json = listEdit(next, xs);
        if (json === undefined) return false;
        const got = rebuild(xs, json);
        if (canonicalJson({ l: got }) !== canonicalJson({ l: next })) return false;
        // Every element the edit copied is the old list's very object.
        if (got.some((x, i) => xs.includes(x as OwnedCharacter) && x !== next[i])) return false;
        xs = next;
      }
      return true;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('a list that grew by one is edited as one run and the new element; a list of numbers is left whole', (t) => {
  const xs = characters(40);
  const grown = [...xs, ...characters(41).slice(40)];
  const json = listEdit(grown, xs);
  t.is(json?.slice(0, 9), '[[0,40],{');
  t.true(
    (json?.length ?? 0) < 300,
    `an edit of ${json?.length} bytes for a list of ${canonicalJson({ l: grown }).length}`,
  );
  t.is(listEdit([1, 2, 4], [1, 2, 3]), undefined, 'a changed number would read as a copy run');
  t.is(listEdit([1, 2, 3, 4], [1, 2, 3]), undefined, 'nor can an appended number');
  t.is(listEdit(xs.slice(1), xs), '[[1,39]]', 'a removal is one run');
});
