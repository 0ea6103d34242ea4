// What a re-draw gacha's re-roll takes back (core/gacha/kept.ts; docs/rules/foundation.md,
// Gacha): exactly what the last result granted: the characters it created, the limit-break
// items and the awakening its duplicates gave (of characters owned before it, too), and
// what it sent to the present box (a present of its own, or amounts added to one). The
// player is left as before the result, but for the managed ids, never reused.
import test from 'ava';
import fc from 'fast-check';
import { freshPlayer, master, NOW, ok, receiveAll } from '../../_support/core.js';
import { grantKept, takeBack } from '../../../core/gacha/kept.js';
import { newCharacter, OVERFLOW, sendPresent } from '../../../core/shared/grant.js';
import { statOf } from '../../../core/operations/gacha.js';
import type { Master } from '../../../core/master/index.js';
import type { PlayerState } from '../../../core/state.js';

const m = master();
const POOL = m.gachas.find((g) => g.gachaId === 1)!.pool;

/** A player owning some characters of the pool, each with an awakening. */
const owning = (ids: ReadonlyArray<number>, awakening = 0): PlayerState => {
  const s = freshPlayer();
  const characters = ids.map((id, i) => ({ ...newCharacter(s.nextManagedId + i, id, NOW), awakening }));
  return { ...s, characters, nextManagedId: s.nextManagedId + ids.length };
};
/** The state but for the next managed id (a re-roll never hands an id out again). */
const but = (s: PlayerState) => ({ ...s, nextManagedId: 0 });
const withLimit = (characters: number): Master => ({
  ...m,
  game: { ...m.game, limits: { ...m.game.limits, characters } },
});

test('a result of new characters and duplicates (of one owned before, of one it created) is taken back whole', (t) => {
  const [a, b, c] = POOL as [number, number, number];
  const before = owning([a], 2);
  const r = grantKept(m, before, [a, b, b, c], NOW, 0);
  if (r._tag === 'Left') return t.fail(r.left.code);
  const { state, kept } = r.right;
  t.is(state.characters.length, before.characters.length + 2);
  t.deepEqual(kept.managedCharacterIds, [before.nextManagedId, before.nextManagedId + 1]);
  t.deepEqual(kept.awakened, [{ managedCharacterId: before.characters[0]!.managedCharacterId, awakening: 2 }]);
  t.deepEqual(
    kept.items.map((x) => x.itemId).sort(),
    [m.character.get(a)!.limitBreakItemId, m.character.get(b)!.limitBreakItemId].sort(),
  );
  t.deepEqual(kept.presents, []);
  t.is(kept.rolls, 0);
  t.deepEqual(but(takeBack(state, kept)), but(before));
});

test('what did not fit in storage is taken back from the present box: a present of its own, or the amount added to one', (t) => {
  const [a, b] = POOL as [number, number];
  const full = owning([POOL[5]!]);
  const m1 = withLimit(1);
  // An overflow present of character a already waits in the box: the result adds to it.
  const waiting = sendPresent(full, { kind: 'character', objectId: a, amount: 1 }, OVERFLOW, NOW, m1).state;
  const r = grantKept(m1, waiting, [a, b, b], NOW, 3);
  if (r._tag === 'Left') return t.fail(r.left.code);
  const { state, kept } = r.right;
  t.deepEqual(state.characters, waiting.characters, 'nothing fitted');
  t.is(kept.presents.length, 2);
  t.like(
    state.presents.find((p) => p.objectId === a),
    { amount: 2 },
  );
  t.like(
    state.presents.find((p) => p.objectId === b),
    { amount: 2 },
  );
  t.deepEqual(but(takeBack(state, kept)), but(waiting));
});

test('takeBack of grantKept is the state before, whatever was owned and drawn', (t) => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.constantFrom(...POOL), { maxLength: 6 }),
      fc.nat(5),
      fc.array(fc.constantFrom(...POOL.slice(0, 12)), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 12 }),
      (owned, awakening, drawn, limit) => {
        const s = owning(owned, awakening);
        const mx = withLimit(Math.max(limit, owned.length));
        const r = grantKept(mx, s, drawn, NOW, 0);
        if (r._tag === 'Left') return false;
        t.deepEqual(but(takeBack(r.right.state, r.right.kept)), but(s));
        return true;
      },
    ),
    { numRuns: 200, seed: 33 },
  );
});

test('a re-roll leaves the player as the new result alone would: the characters owned before and their items as they were', (t) => {
  const [a] = POOL as [number];
  const s = receiveAll(t, owning([a]));
  const first = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: false }, { seed: 'one' }).state;
  const re = ok(t, 'drawPlayerGacha', first, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'two' }).state;
  const ids = statOf(re, 1).pending!.characterIds;
  const alone = grantKept(m, s, ids, NOW, 1);
  if (alone._tag === 'Left') return t.fail(alone.left.code);
  const shape = (x: PlayerState) => ({
    characters: x.characters.map((c) => [c.characterId, c.awakening]),
    items: x.items,
    presents: x.presents.map((p) => [p.kind, p.objectId, p.amount]),
  });
  t.deepEqual(shape(re), shape(alone.right.state));
  t.deepEqual(statOf(re, 1).pending?.kept?.items, alone.right.kept.items);
});
