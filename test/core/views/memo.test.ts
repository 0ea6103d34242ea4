// The speed paths of the core must not change what it computes: a state copy keeps
// every field, and a list view built from the list it replaced equals one built
// from scratch, whatever the edit, while unchanged elements keep their views.
import test from 'ava';
import fc from 'fast-check';
import { STATE_FIELDS, type OwnedCharacter } from '../../../core/state.js';
import { withFields } from '../../../core/state/copy.js';
import { charactersView, fullView, isShared, keepPlayerViews, type ViewCtx } from '../../../core/view.js';
import { RECENT_ELEMENTS } from '../../../core/views/never-mutated.js';
import { newCharacter } from '../../../core/shared/grant.js';
import { freshPlayer, master, NOW } from '../../_support/core.js';
import { characters, edit, editRounds, type Edit } from '../../_support/list-edits.js';

// These tests are of the kept views (what ANSWER_CACHE_MB > 0 turns on); the last one compares both ways.
keepPlayerViews(true);

test('withFields copies every field of the state, replaces the given ones and leaves its input alone', (t) => {
  const s = freshPlayer();
  const before = JSON.stringify(s);
  const next = withFields(s, { gold: s.gold + 5, version: 9 });
  t.deepEqual(Object.keys(next).sort(), Object.keys(STATE_FIELDS).sort());
  t.deepEqual(next, { ...s, gold: s.gold + 5, version: 9 });
  t.is(JSON.stringify(s), before);
  t.not(next, s);
});

/** The view of one character built directly, as a first read would. */
const direct = (c: OwnedCharacter, ctx: ViewCtx) => charactersView([c], ctx)[0];

test('a list view built from the one it replaced equals the view built from scratch, after any edits', (t) => {
  const m = master();
  fc.assert(
    fc.property(editRounds, (rounds) => {
      const ctx: ViewCtx = { master: m, now: NOW };
      let xs: OwnedCharacter[] = characters(12);
      let view = charactersView(xs, ctx);
      let id = 100;
      for (const edits of rounds) {
        let next = xs;
        for (const e of edits) next = edit(next, e, id++);
        const got = charactersView(next, ctx, xs);
        const only = edits[0] as Edit;
        const single = edits.length === 1 && (only.kind !== 'remove' || only.count === 1);
        if (got.length !== next.length) return false;
        for (let i = 0; i < next.length; i++) {
          const c = next[i] as OwnedCharacter;
          if (JSON.stringify(got[i]) !== JSON.stringify(direct(c, ctx))) return false;
          if (!isShared(got[i] as object)) return false;
          // After one edit (what an operation does), an element still in the list keeps the very view it had.
          const was = xs.indexOf(c);
          if (single && was >= 0 && got[i] !== view[was]) return false;
        }
        xs = next;
        view = got;
      }
      return true;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test("a list that only grew keeps every earlier element's view, and only the new one is built", (t) => {
  const ctx: ViewCtx = { master: master(), now: NOW };
  const xs = Array.from({ length: 5 }, (_, i) => newCharacter(i + 1, 100 + i, NOW));
  const before = charactersView(xs, ctx);
  const grown = [...xs, newCharacter(6, 200, NOW)];
  const after = charactersView(grown, ctx, xs);
  t.deepEqual(
    after.slice(0, 5).map((v, i) => v === before[i]),
    [true, true, true, true, true],
  );
  t.like(after[5], { managedCharacterId: 6, characterId: 200 });
  // The same list again is the same view.
  t.is(charactersView(grown, ctx), after);
});

test('views not kept (the default: no answer cache) equal the kept ones, unmarked, and are dropped past the recent bound', (t) => {
  const ctx: ViewCtx = { master: master(), now: NOW };
  const s = { ...freshPlayer(), characters: characters(7) };
  t.teardown(() => keepPlayerViews(true));
  const kept = fullView(s, ctx);
  t.is(charactersView(s.characters, ctx), charactersView(s.characters, ctx), 'kept: the same list view');
  keepPlayerViews(false);
  const fresh = fullView(s, ctx);
  t.deepEqual(fresh, kept);
  t.is(JSON.stringify(fresh), JSON.stringify(kept));
  const again = charactersView(s.characters, ctx);
  t.not(again, kept['managedCharacters'], 'not the kept one: the two tables are apart');
  t.is(charactersView(s.characters, ctx), again, 'a recent list: the same view');
  t.false(isShared(again[0] as object), 'and its elements unmarked');
  // Other lists built past two generations' bound push it out: built afresh then, equal.
  for (let i = 0; i < (2 * RECENT_ELEMENTS) / 8 + 2; i++) charactersView(characters(7), ctx);
  const after = charactersView(s.characters, ctx);
  t.not(after, again, 'dropped: a new list');
  t.deepEqual(after, again);
});
