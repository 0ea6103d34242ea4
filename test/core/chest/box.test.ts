// A chest's box over its period (docs/rules/social.md, Chests): get_all and get_step show
// the step, the prizes and what is left; the period to the millisecond; reset after the
// jackpot moves to the next step (the last one repeats); unknown chests refused naming them;
// each chest's progress its own.
import test from 'ava';
import { fails, freshPlayer, master, ok, withWealth } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { ChestProgress } from '../../../core/state/social.js';

const LANTERN = 1;
const OLD = 2;
const token = () => master().chest.get(LANTERN)!.cost.itemId;
const rich = (n = 1000): PlayerState => withWealth(freshPlayer(), { items: { [String(token())]: n } });
const stepSize = (step: number) =>
  master()
    .chest.get(LANTERN)!
    .steps[step]!.prizes.reduce((n, p) => n + p.count, 0);
const m = master();
const lantern = m.chest.get(LANTERN)!;
const TOKEN = lantern.cost.itemId;
const boxSize = (step: number) => lantern.steps[step]!.prizes.reduce((n, p) => n + p.count, 0);
/** The Harvest Moon box's progress: every prize of its box drawn, the jackpot too, reset twice. */
const oldProgress: ChestProgress = {
  chestId: OLD,
  step: 0,
  drawn: m.chest.get(OLD)!.steps[0]!.prizes.map((p) => ({ prizeId: p.prizeId, count: p.count })),
  jackpotDrawn: true,
  resets: 2,
};

test('get_all lists the chests open now with step and remaining; get_step lists the prizes', (t) => {
  const s = rich(5);
  const all = ok(t, 'getAllPlayerChest', s, {}).response.chests;
  t.deepEqual(
    all.map((c) => c.chestId),
    [LANTERN],
  );
  t.is(all[0]?.step, 1);
  t.is(all[0]?.remaining, stepSize(0));
  t.is(all[0]?.held, 5);
  const step = ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response;
  t.is((step['prizes'] as unknown[]).length, master().chest.get(LANTERN)!.steps[0]!.prizes.length);
  fails(t, 'NOT_FOUND', 'getStepPlayerChest', s, { chestId: 77 });
});

test("get_all gives the box's size as total and what is left as remaining", (t) => {
  const fresh = ok(t, 'getAllPlayerChest', rich(), {}).response.chests[0]!;
  t.like(fresh, {
    total: boxSize(0),
    remaining: boxSize(0),
    step: 1,
    stepCount: lantern.steps.length,
    costItemId: TOKEN,
    costAmount: lantern.cost.amount,
  });
  const drawn = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: 5 }).state;
  t.like(ok(t, 'getAllPlayerChest', drawn, {}).response.chests[0], { total: boxSize(0), remaining: boxSize(0) - 5 });
});

test('a chest is open from its start, to the millisecond, and closed from its end', (t) => {
  const s = rich();
  const { startsAt, endsAt } = lantern;
  if (endsAt === null) {
    t.fail('the Lantern box has an end in the fixtures');
    return;
  }
  const listed = (now: number) => ok(t, 'getAllPlayerChest', s, {}, { now }).response.chests.map((c) => c.chestId);
  t.deepEqual(listed(startsAt), [LANTERN], 'open at its start');
  t.deepEqual(listed(startsAt - 1), [], 'not yet a millisecond before');
  t.deepEqual(listed(endsAt - 1), [LANTERN], 'open a millisecond before its end');
  t.deepEqual(listed(endsAt), [], 'closed at its end');
  ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: startsAt });
  t.like(fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: startsAt - 1 }), {
    chestId: LANTERN,
  });
  ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: endsAt - 1 });
  t.like(fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: endsAt }), {
    chestId: LANTERN,
  });
  const won: PlayerState = { ...s, chests: [{ chestId: LANTERN, step: 0, drawn: [], jackpotDrawn: true, resets: 0 }] };
  ok(t, 'resetPlayerChest', won, { chestId: LANTERN }, { now: startsAt });
  fails(t, 'CHEST_OUT_OF_PERIOD', 'resetPlayerChest', won, { chestId: LANTERN }, { now: endsAt });
});

test('an unknown chest is 107 naming the chest and its id, for every chest operation', (t) => {
  const s = rich();
  t.like(fails(t, 'NOT_FOUND', 'drawPlayerChest', s, { chestId: 77, count: 1 }), { entity: 'chest', id: 77 });
  t.like(fails(t, 'NOT_FOUND', 'getStepPlayerChest', s, { chestId: 77 }), { entity: 'chest', id: 77 });
  t.like(fails(t, 'NOT_FOUND', 'resetPlayerChest', s, { chestId: 77 }), { entity: 'chest', id: 77 });
});

// ---- reset ----

test('reset is allowed only after the jackpot (317 before), and the last step repeats', (t) => {
  fails(t, 'STATE_CONFLICT', 'resetPlayerChest', rich(), { chestId: LANTERN });
  const steps = master().chest.get(LANTERN)!.steps.length;
  // Progress at the last step with its jackpot drawn: a reset gives the last step again.
  const s: PlayerState = {
    ...rich(),
    chests: [{ chestId: LANTERN, step: steps - 1, drawn: [], jackpotDrawn: true, resets: steps - 1 }],
  };
  const r = ok(t, 'resetPlayerChest', s, { chestId: LANTERN });
  t.is(r.response.step, steps);
  t.is(r.response.remaining, stepSize(steps - 1));
});

test('reset: unknown 107, out of period 467', (t) => {
  fails(t, 'NOT_FOUND', 'resetPlayerChest', rich(), { chestId: 77 });
  fails(
    t,
    'CHEST_OUT_OF_PERIOD',
    'resetPlayerChest',
    { ...rich(), chests: [{ chestId: OLD, step: 0, drawn: [], jackpotDrawn: true, resets: 0 }] },
    { chestId: OLD },
  );
});

test('each reset counts one more reset and moves to the next step', (t) => {
  const won: PlayerState = {
    ...rich(),
    chests: [{ chestId: LANTERN, step: 0, drawn: [], jackpotDrawn: true, resets: 0 }],
  };
  const a = ok(t, 'resetPlayerChest', won, { chestId: LANTERN });
  t.like(a.response, { chestId: LANTERN, step: 2, resets: 1, jackpotDrawn: false, remaining: boxSize(1) });
  t.deepEqual(a.state.chests, [{ chestId: LANTERN, step: 1, drawn: [], jackpotDrawn: false, resets: 1 }]);
  const again: PlayerState = { ...a.state, chests: [{ ...a.state.chests[0]!, jackpotDrawn: true }] };
  const b = ok(t, 'resetPlayerChest', again, { chestId: LANTERN });
  t.like(b.response, { step: 3, resets: 2 });
});

test("a chest's progress is its own: another chest's step, draws and jackpot are neither read nor overwritten", (t) => {
  const s: PlayerState = { ...rich(), chests: [oldProgress] };
  // get_step and get_all read the Lantern box's own (fresh) progress.
  t.like(ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response, {
    step: 1,
    jackpotDrawn: false,
    resets: 0,
    remaining: boxSize(0),
  });
  t.like(ok(t, 'getAllPlayerChest', s, {}).response.chests[0], {
    chestId: LANTERN,
    jackpotDrawn: false,
    resets: 0,
    remaining: boxSize(0),
  });
  fails(t, 'STATE_CONFLICT', 'resetPlayerChest', s, { chestId: LANTERN });
  // A first draw adds the Lantern box's progress beside it, in chest order.
  const a = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 2 });
  t.deepEqual(
    a.state.chests.map((p) => p.chestId),
    [LANTERN, OLD],
  );
  t.deepEqual(a.state.chests[1], oldProgress);
  t.is(a.response.remaining, boxSize(0) - 2);
  // A later draw changes the Lantern box's progress only.
  const b = ok(t, 'drawPlayerChest', a.state, { chestId: LANTERN, count: 3 }, { seed: 'b' });
  t.deepEqual(b.state.chests[1], oldProgress);
  t.is(
    b.state.chests[0]!.drawn.reduce((n, d) => n + d.count, 0),
    5,
  );
  t.is(b.response.remaining, boxSize(0) - 5);
  // So does a reset.
  const won: PlayerState = { ...a.state, chests: [{ ...a.state.chests[0]!, jackpotDrawn: true }, oldProgress] };
  const c = ok(t, 'resetPlayerChest', won, { chestId: LANTERN });
  t.deepEqual(c.state.chests, [{ chestId: LANTERN, step: 1, drawn: [], jackpotDrawn: false, resets: 1 }, oldProgress]);
});
