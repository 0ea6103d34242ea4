// Bounded players (issue 18): every list a player can grow has a bound in master
// data and a rule at it. What overflows storage merges into a present of the same
// thing; a change that would put a present beyond presents.boxMax is refused (313)
// with nothing changed; the draw history keeps gacha.historyMax records; an account
// keeps move.movedFromKeep old uuids.
import test from 'ava';
import { applyMove } from '../../core/account.js';
import { newCharacter, sendPresent } from '../../core/shared/grant.js';
import type { Master } from '../../core/master/index.js';
import type { PlayerState } from '../../core/state.js';
import { fails, freshPlayer, master, NOW, ok, receiveAll, runOp, withWealth } from '../_support/core.js';

/** Master data with some of game's numbers changed. */
const tuned = (game: { presents?: object; gacha?: object; move?: object }): Master => {
  const m = master();
  return { ...m, game: { ...m.game, presents: { ...m.game.presents, ...game.presents }, gacha: { ...m.game.gacha, ...game.gacha }, move: { ...m.game.move, ...game.move } } };
};

/** A player owning every character and holding the most of every limit-break item: every pull overflows to the box. */
const maxedOut = (t: import('ava').ExecutionContext, m: Master): PlayerState => {
  const items: Record<string, number> = {};
  for (const c of m.character.values()) items[String(c.limitBreakItemId)] = m.item.get(c.limitBreakItemId)?.max ?? 0;
  const s = withWealth(receiveAll(t, freshPlayer()), { gem: m.game.currencyMax.gem, items });
  const owned = new Set(s.characters.map((c) => c.characterId));
  const extra = [...m.character.values()].filter((c) => !owned.has(c.characterId)).map((c, i) => newCharacter(s.nextManagedId + i, c.characterId, NOW));
  return { ...s, characters: [...s.characters, ...extra], nextManagedId: s.nextManagedId + extra.length };
};

const tenDraw = (t: import('ava').ExecutionContext, s: PlayerState, i: number, m: Master = master()) =>
  ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: `draw-${i}`, m }).state;

test('what overflows storage merges into one present per thing: the box grows with distinct things, not with draws', (t) => {
  const m = master();
  let s = maxedOut(t, m);
  const sizes: number[] = [];
  for (let i = 0; i < 60; i++) {
    s = tenDraw(t, s, i);
    sizes.push(s.presents.length);
  }
  const overflow = s.presents.filter((p) => p.source === 'overflow');
  const things = new Set(overflow.map((p) => `${p.kind}:${p.objectId}`));
  t.is(overflow.length, things.size, 'one present per item');
  // 600 pulls of up to 139 characters: about as many presents as distinct items drawn as duplicates.
  t.true(overflow.length <= m.character.size, `${overflow.length} presents`);
  t.true((sizes.at(-1) as number) - (sizes[29] as number) < (sizes[29] as number), 'the second half of the draws added fewer presents than the first');
  t.true(overflow.some((p) => p.amount > 1), 'amounts were summed');
});

test('a merged present holds at most what the player can hold of it; past that a new one starts', (t) => {
  const m = master();
  const itemId = [...m.character.values()][0]?.limitBreakItemId as number;
  const max = m.item.get(itemId)?.max as number;
  let s = freshPlayer();
  const before = s.presents.length;
  const third = Math.floor(max / 3);
  const meta = { title: 'Storage full', message: 'x', source: 'overflow', deadline: null };
  for (let i = 0; i < 4; i++) s = sendPresent(s, { kind: 'item', objectId: itemId, amount: third }, meta, NOW, m).state;
  const mine = s.presents.filter((p) => p.objectId === itemId && p.kind === 'item');
  t.deepEqual(mine.map((p) => p.amount), [3 * third, third], 'three merged, the fourth did not fit and started a new one');
  t.true(mine.every((p) => p.amount <= max));
  // Operator presents and presents with a deadline are never merged.
  const op = sendPresent(s, { kind: 'gold', objectId: 0, amount: 5 }, { title: 'Gift', message: '', source: 'operator', deadline: null }, NOW, m).state;
  const op2 = sendPresent(op, { kind: 'gold', objectId: 0, amount: 5 }, { title: 'Gift', message: '', source: 'operator', deadline: null }, NOW, m).state;
  t.is(op2.presents.length, s.presents.length + 2);
  t.true(s.presents.length > before);
});

test('a change that would put a present beyond presents.boxMax is refused (313) and changes nothing', (t) => {
  const base = maxedOut(t, master());
  t.is(base.presents.length, 0);
  const boxMax = 12;
  const m = tuned({ presents: { boxMax } });
  let s = base;
  for (let i = 0; i < boxMax; i++) s = sendPresent(s, { kind: 'gold', objectId: 0, amount: 1 }, { title: `Gift ${i}`, message: '', source: 'operator', deadline: null }, NOW, m).state;
  t.is(s.presents.length, boxMax);
  // Every pull is a duplicate whose items are full: it would need a present.
  const e = fails(t, 'PRESENT_LIMIT', 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: 'full', m });
  t.is(e.code === 'PRESENT_LIMIT' ? e.max : 0, boxMax);
  // Received presents make room: the same draw goes through, the box within its bound.
  const ids = s.presents.map((p) => p.managedPresentId);
  const room = ok(t, 'getPlayerPresent', s, { managedPresentId: ids.join(',') }, { m }).state;
  t.is(room.presents.length, 0);
  let at = ok(t, 'drawPlayerGacha', room, { gachaId: 2, drawType: 3 }, { seed: 'full', m }).state;
  t.true(at.presents.length > 0 && at.presents.length <= boxMax);
  // Draw on: each draw either fits (merged or within the bound) or is refused with nothing changed.
  let refused = 0;
  for (let i = 0; i < 20; i++) {
    const r = runOp('drawPlayerGacha', at, { gachaId: 2, drawType: 3 }, { seed: `more-${i}`, m });
    if (r._tag === 'Left') { t.is(r.left.code, 'PRESENT_LIMIT'); refused++; continue; }
    at = r.right.state;
    t.true(at.presents.length <= boxMax);
  }
  t.true(refused > 0);
});

test('the draw history keeps at most gacha.historyMax records, the newest', (t) => {
  const m = tuned({ gacha: { historyMax: 5 } });
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: m.game.currencyMax.gem });
  for (let i = 0; i < 8; i++) s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: `h${i}`, now: NOW + i * 1000, m }).state;
  t.is(s.gachaHistory.length, 5);
  t.deepEqual(s.gachaHistory.map((r) => r.drawnAt), [3, 4, 5, 6, 7].map((i) => NOW + i * 1000));
});

test('an account keeps the last move.movedFromKeep uuids it moved away from', (t) => {
  const m = tuned({ move: { movedFromKeep: 2 } });
  let s = freshPlayer();
  for (let i = 0; i < 4; i++) {
    s = ok(t, 'getPlayerMove', s, { password: 'secret123' }, { m, seed: `mv${i}` }).state;
    const r = applyMove(m, s, { moveCode: s.move?.code ?? '', movePassword: 'secret123', uuid: `00000000-0000-4000-8000-00000000010${i}`, platform: 2, accessToken: 'new-token-0000000001' }, NOW);
    t.is(r.error, null);
    s = r.state;
  }
  t.deepEqual(s.account.movedFrom, ['00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000102']);
});
