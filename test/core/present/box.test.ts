// The present box (docs/rules/foundation.md, Presents): get_all lists it newest first without
// the expired (a deadline is exclusive, to the millisecond); the received list keeps the
// configured count and days; what overflows storage merges into one present per thing (at
// most what the player can hold of it); the box is bounded by presents.boxMax (313, nothing
// changed). The bounds were issue 18.
import test from 'ava';
import { freshPlayer, master, NOW, ok, fails, receiveAll, runOp, withWealth } from '../../_support/core.js';
import { sendPresent, newCharacter } from '../../../core/shared/grant.js';
import { DAY } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import { answerCodec } from '../../../core/operation.js';
import { answerProblems } from '../../../core/answer-check.js';
import { operationByName, operationNamed } from '../../../core/operations/table.js';
import type { Master } from '../../../core/master/index.js';

const gold = (s: PlayerState, amount: number, at: number, deadline: number | null = null) => {
  const r = sendPresent(
    s,
    { kind: 'gold', objectId: 0, amount },
    { title: `gold ${amount}`, message: '', source: 'operator', deadline },
    at,
  );
  return { state: r.state, id: r.present.managedPresentId };
};

/** Master data with some of game's numbers changed. */
const tuned = (game: { presents?: object; gacha?: object; move?: object }): Master => {
  const m = master();
  return {
    ...m,
    game: {
      ...m.game,
      presents: { ...m.game.presents, ...game.presents },
      gacha: { ...m.game.gacha, ...game.gacha },
      move: { ...m.game.move, ...game.move },
    },
  };
};

/** A player owning every character and holding the most of every limit-break item: every pull overflows to the box. */
const maxedOut = (t: import('ava').ExecutionContext, m: Master): PlayerState => {
  const items: Record<string, number> = {};
  for (const c of m.character.values()) items[String(c.limitBreakItemId)] = m.item.get(c.limitBreakItemId)?.max ?? 0;
  const s = withWealth(receiveAll(t, freshPlayer()), { gem: m.game.currencyMax.gem, items });
  const owned = new Set(s.characters.map((c) => c.characterId));
  const extra = [...m.character.values()]
    .filter((c) => !owned.has(c.characterId))
    .map((c, i) => newCharacter(s.nextManagedId + i, c.characterId, NOW));
  return { ...s, characters: [...s.characters, ...extra], nextManagedId: s.nextManagedId + extra.length };
};

const tenDraw = (t: import('ava').ExecutionContext, s: PlayerState, i: number, m: Master = master()) =>
  ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: `draw-${i}`, m }).state;

test('a new player has the welcome presents, newest first in get_all', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'getAllPlayerPresent', s, {});
  const list = r.response.presents;
  t.is(list.length, master().welcome.length);
  t.deepEqual(
    list.map((p) => p.managedPresentId),
    [...s.presents.map((p) => p.managedPresentId)].reverse(),
  );
  t.true(
    list.some((p) => p.kind === 'gem' && p.amount >= 1500),
    'enough gems for a ten-draw',
  );
  t.true(
    list.some((p) => p.kind === 'item'),
    'a ticket',
  );
});

test('the box after a receipt is listed as get_all lists it: newest first, without the expired', (t) => {
  let s = freshPlayer();
  const older = gold(s, 1, NOW - 2000);
  s = older.state;
  const newer = gold(s, 2, NOW - 1000);
  s = newer.state;
  const expiring = gold(s, 3, NOW - 500, NOW + 5);
  s = expiring.state;
  const taken = gold(s, 4, NOW - 100);
  s = taken.state;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(taken.id) }, { now: NOW + 10 });
  const box = r.response.presents;
  t.deepEqual(box, ok(t, 'getAllPlayerPresent', r.state, {}, { now: NOW + 10 }).response.presents);
  const ids = box.map((p) => p.managedPresentId);
  t.false(ids.includes(expiring.id));
  t.false(ids.includes(taken.id));
  t.true(ids.indexOf(newer.id) < ids.indexOf(older.id), 'newest first');
  t.like(
    box.find((p) => p.managedPresentId === newer.id),
    { kind: 'gold', amount: 2, title: 'gold 2' },
  );
});

test('a present whose deadline is now has expired: not listed, not received, and says so', (t) => {
  const { state: s, id } = gold(freshPlayer(), 5, NOW, NOW + DAY);
  const listed = (now: number) =>
    ok(t, 'getAllPlayerPresent', s, {}, { now }).response.presents.map((p) => p.managedPresentId);
  t.true(listed(NOW + DAY - 1).includes(id), 'a millisecond before the deadline it is listed');
  t.false(listed(NOW + DAY).includes(id), 'at the deadline it is not');
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(id) }, { now: NOW + DAY });
  t.deepEqual(r.response.notReceived, [
    { managedPresentId: id, reason: 'EXPIRED', resultCode: 0, resultMessage: 'The present expired.' },
  ]);
  t.is(r.state.gold, s.gold);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: String(id) }, { now: NOW + DAY - 1 }).state.gold, s.gold + 5);
});

test('the received list keeps the configured count, newest first', (t) => {
  let s = freshPlayer();
  const keep = master().game.presents.receivedKeepCount;
  for (let i = 0; i < keep + 5; i++)
    s = sendPresent(
      s,
      { kind: 'gold', objectId: 0, amount: 1 },
      { title: `p${i}`, message: '', source: 'operator', deadline: null },
      NOW,
    ).state;
  const ids = s.presents.map((p) => p.managedPresentId);
  s = ok(t, 'getPlayerPresent', s, { managedPresentId: ids.slice(0, 100).join(',') }).state;
  s = ok(t, 'getPlayerPresent', s, { managedPresentId: ids.slice(100).join(',') }, { now: NOW + 1000 }).state;
  const rec = ok(t, 'getReceivedPlayerPresent', s, {}, { now: NOW + 2000 }).response.receivedPresents;
  t.is(rec.length, keep);
  t.is(rec[0]!.managedPresentId, ids.at(-1)!, 'the newest receipt, highest id first');
  const old = ok(
    t,
    'getReceivedPlayerPresent',
    s,
    {},
    { now: NOW + (master().game.presents.receivedKeepDays + 1) * DAY },
  ).response.receivedPresents;
  t.is(old.length, 0, 'older than the configured age is not listed');
});

test('a receipt exactly the kept days old is still kept; a millisecond older is dropped', (t) => {
  const keep = master().game.presents.receivedKeepDays * DAY;
  const a = gold(freshPlayer(), 1, NOW);
  const b = gold(a.state, 2, NOW);
  const got = ok(t, 'getPlayerPresent', b.state, { managedPresentId: String(a.id) }).state;
  const received = (now: number) =>
    ok(t, 'getReceivedPlayerPresent', got, {}, { now }).response.receivedPresents.map((p) => p.managedPresentId);
  t.deepEqual(received(NOW + keep), [a.id]);
  t.deepEqual(received(NOW + keep + 1), []);
  // A later receipt prunes the stored list with the same rule.
  const atEdge = ok(t, 'getPlayerPresent', got, { managedPresentId: String(b.id) }, { now: NOW + keep }).state;
  t.deepEqual(
    atEdge.received.map((p) => p.managedPresentId),
    [b.id, a.id],
  );
  const past = ok(t, 'getPlayerPresent', got, { managedPresentId: String(b.id) }, { now: NOW + keep + 1 }).state;
  t.deepEqual(
    past.received.map((p) => p.managedPresentId),
    [b.id],
  );
});

test('every present answer is exactly its declared codec (the client contract); the reads are declared read-only', (t) => {
  let s = freshPlayer();
  const expired = gold(s, 1, NOW, NOW + 5);
  s = expired.state;
  const got = ok(
    t,
    'getPlayerPresent',
    s,
    { managedPresentId: `${s.presents[0]!.managedPresentId},999999,${expired.id}` },
    { now: NOW + 10 },
  );
  t.true(
    got.response.receivedPresents.length > 0 && got.response.notReceived.length > 0 && got.response.presents.length > 0,
  );
  const answers = [
    ['getPlayerPresent', got.response],
    ['getAllPlayerPresent', ok(t, 'getAllPlayerPresent', got.state, {}, { now: NOW + 10 }).response],
    ['getReceivedPlayerPresent', ok(t, 'getReceivedPlayerPresent', got.state, {}, { now: NOW + 10 }).response],
  ] as const;
  for (const [name, answer] of answers)
    t.deepEqual(answerProblems(answerCodec(operationByName(name)!), answer), [], name);
  t.is(operationNamed('getAllPlayerPresent').readOnly, true);
  t.is(operationNamed('getReceivedPlayerPresent').readOnly, true);
  t.not(operationNamed('getPlayerPresent').readOnly, true);
});

// ---- overflow and the bound ----

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
  t.true(
    (sizes.at(-1) as number) - (sizes[29] as number) < (sizes[29] as number),
    'the second half of the draws added fewer presents than the first',
  );
  t.true(
    overflow.some((p) => p.amount > 1),
    'amounts were summed',
  );
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
  t.deepEqual(
    mine.map((p) => p.amount),
    [3 * third, third],
    'three merged, the fourth did not fit and started a new one',
  );
  t.true(mine.every((p) => p.amount <= max));
  // Operator presents and presents with a deadline are never merged.
  const op = sendPresent(
    s,
    { kind: 'gold', objectId: 0, amount: 5 },
    { title: 'Gift', message: '', source: 'operator', deadline: null },
    NOW,
    m,
  ).state;
  const op2 = sendPresent(
    op,
    { kind: 'gold', objectId: 0, amount: 5 },
    { title: 'Gift', message: '', source: 'operator', deadline: null },
    NOW,
    m,
  ).state;
  t.is(op2.presents.length, s.presents.length + 2);
  t.true(s.presents.length > before);
});

test('a reward that did not fit merges into the reward present of the same thing, as overflow does; another source or a deadline does not', (t) => {
  const m = master();
  const reward = {
    title: 'Quest',
    message: 'A quest reward that did not fit in your storage.',
    source: 'reward',
    deadline: null,
  };
  const send = (
    s: PlayerState,
    meta: typeof reward | { title: string; message: string; source: string; deadline: number | null },
  ) => sendPresent(s, { kind: 'gold', objectId: 0, amount: 5 }, meta, NOW, m).state;
  const twice = send(send(freshPlayer(), reward), reward);
  const start = freshPlayer().presents.length;
  t.is(twice.presents.length, start + 1, 'one reward present');
  t.like(twice.presents.at(-1), { source: 'reward', amount: 10 });
  const operator = { ...reward, source: 'operator' };
  t.is(send(send(freshPlayer(), operator), operator).presents.length, start + 2, "an operator's presents stay apart");
  const dated = { ...reward, deadline: NOW + DAY };
  t.is(send(send(freshPlayer(), dated), dated).presents.length, start + 2, 'presents with a deadline stay apart');
});

test('a change that would put a present beyond presents.boxMax is refused (313) and changes nothing', (t) => {
  const base = maxedOut(t, master());
  t.is(base.presents.length, 0);
  const boxMax = 12;
  const m = tuned({ presents: { boxMax } });
  let s = base;
  for (let i = 0; i < boxMax; i++)
    s = sendPresent(
      s,
      { kind: 'gold', objectId: 0, amount: 1 },
      { title: `Gift ${i}`, message: '', source: 'operator', deadline: null },
      NOW,
      m,
    ).state;
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
    if (r._tag === 'Left') {
      t.is(r.left.code, 'PRESENT_LIMIT');
      refused++;
      continue;
    }
    at = r.right.state;
    t.true(at.presents.length <= boxMax);
  }
  t.true(refused > 0);
});
