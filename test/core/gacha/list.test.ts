// gacha/get_all (docs/rules/foundation.md, Gacha): the open gachas in the original's shape,
// with the player's draws of each kind today and in all, a re-draw gacha's held result and
// closing; named gachas, an unknown one refused naming it.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth } from '../../_support/core.js';
import { DAY } from '../../../core/time.js';
import { statOf } from '../../../core/operations/gacha.js';
import { operationByName } from '../../../core/operations/table.js';
import { answerCodec } from '../../../core/operation.js';
import { answerProblems } from '../../../core/answer-check.js';

/** What is wrong with an answer against its operation's codec, strictly (undeclared fields too). */
const problems = (name: string, response: unknown): string[] =>
  answerProblems(answerCodec(operationByName(name)!), response);

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

test("get_all lists open gachas with the player's counts; named ids list those, unknown is 107", (t) => {
  const s = rich(t);
  const all = ok(t, 'getAllPlayerGacha', s, {});
  const ids = all.response.gachas.map((g) => g.gacha.id);
  t.deepEqual(ids, [1, 2, 3, 4, 6]);
  const named = ok(t, 'getAllPlayerGacha', s, { gachaIds: '5,2' });
  t.deepEqual(
    named.response.gachas.map((g) => [g.gacha.id, g.open]),
    [
      [5, false],
      [2, true],
    ],
  );
  fails(t, 'NOT_FOUND', 'getAllPlayerGacha', s, { gachaIds: '2,77' });
  t.is(all.state, s, 'a read changes nothing');
});

test("get_all answers in the original's shape: a gacha object with -1 for none, the player's counts beside, no steps", (t) => {
  const r = ok(t, 'getAllPlayerGacha', freshPlayer(), { gachaIds: '1,2,6' });
  t.deepEqual(problems('getAllPlayerGacha', r.response), []);
  t.deepEqual(r.response.gachaSteps, []);
  const [first, standard, weekend] = r.response.gachas;
  t.deepEqual(standard?.gacha, {
    id: 2,
    name: master().gacha.get(2)!.name,
    type: 1,
    kind: 'standard',
    gem1: 150,
    gem10: 1500,
    first10: 750,
    unlimitedGem: 100,
    itemId: 3001,
    itemAmount: 1,
    startAt: '2024-01-01T00:00:00',
    endAt: null,
    sun: 1,
    mon: 1,
    tue: 1,
    wed: 1,
    thu: 1,
    fri: 1,
    sat: 1,
    reDraw: -1,
    drawLimit: -1,
    allLimit: -1,
    pointsPerDraw: 1,
  });
  t.like(first?.gacha, {
    id: 1,
    kind: 'firstTime',
    reDraw: 1,
    gem10: 0,
    first10: -1,
    unlimitedGem: -1,
    itemId: -1,
    itemAmount: -1,
    allLimit: 10,
    drawLimit: -1,
  });
  t.like(weekend?.gacha, {
    id: 6,
    sun: 1,
    mon: 0,
    tue: 0,
    wed: 0,
    thu: 0,
    fri: 0,
    sat: 1,
    drawLimit: 20,
    allLimit: 100,
  });
  t.like(standard, {
    uGem1Total: 0,
    uGem1Daily: 0,
    gem1Total: 0,
    gem1Daily: 0,
    gem10Total: 0,
    gem10Daily: 0,
    itemTotal: 0,
    itemDaily: 0,
    open: true,
    ticketHeld: 0,
    drawsToday: 0,
    totalDraws: 0,
    points: 0,
    closed: false,
    pending: null,
  });
});

test("get_all counts the player's draws of each kind, today and in all; first10 is -1 once used", (t) => {
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: 100_000, paidGem: 1000 });
  t.is(ok(t, 'getAllPlayerGacha', s, { gachaIds: '2' }).response.gachas[0]?.ticketHeld, 1);
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'k1' }).state; // the ticket
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'k2' }).state; // gems
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'k3' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 2 }, { seed: 'k4' }).state; // paid gems
  const ten = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: 'k5' }); // a ten-draw
  t.deepEqual(problems('drawPlayerGacha', ten.response), []);
  s = ten.state;
  const all = ok(t, 'getAllPlayerGacha', s, { gachaIds: '2' }).response;
  t.deepEqual(problems('getAllPlayerGacha', all), []);
  const today = all.gachas[0]!;
  t.like(today, {
    itemTotal: 1,
    itemDaily: 1,
    gem1Total: 2,
    gem1Daily: 2,
    uGem1Total: 1,
    uGem1Daily: 1,
    gem10Total: 1,
    gem10Daily: 1,
    ticketHeld: 0,
    drawsToday: 14,
    totalDraws: 14,
    points: 14,
  });
  t.is(today.gacha.first10, -1, 'the first ten-draw discount was used');
  const tomorrow = ok(t, 'getAllPlayerGacha', s, { gachaIds: '2' }, { now: NOW + DAY }).response.gachas[0]!;
  t.like(tomorrow, {
    itemTotal: 1,
    itemDaily: 0,
    gem1Total: 2,
    gem1Daily: 0,
    uGem1Total: 1,
    uGem1Daily: 0,
    gem10Total: 1,
    gem10Daily: 0,
    drawsToday: 0,
    totalDraws: 14,
  });
});

test("get_all: a re-draw gacha's re-draws and its fix are not draws; its pending result and closing are shown", (t) => {
  let s = rich(t);
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }).state;
  for (let i = 0; i < 3; i++)
    s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: `r${i}` }).state;
  const pending = ok(t, 'getAllPlayerGacha', s, {}).response.gachas.find((g) => g.gacha.id === 1)!;
  t.like(pending, { gem10Total: 1, gem10Daily: 1, closed: false, totalDraws: 10 });
  t.deepEqual(pending.pending, statOf(s, 1).pending!.characterIds);
  s = ok(t, 'fixPlayerGacha', s, {}).state;
  t.false(
    ok(t, 'getAllPlayerGacha', s, {}).response.gachas.some((g) => g.gacha.id === 1),
    'a fixed re-draw gacha leaves the open list',
  );
  t.like(ok(t, 'getAllPlayerGacha', s, { gachaIds: '1' }).response.gachas[0], {
    gem10Total: 1,
    closed: true,
    pending: null,
  });
});

test('get_all naming an unknown gacha is 107 naming the gacha and that id', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'getAllPlayerGacha', freshPlayer(), { gachaIds: '2,77' }), { entity: 'gacha', id: 77 });
});
