// Drawing from a box-event chest (docs/rules/social.md, Chests): count × the cost paid,
// count prizes from the box weighted by what is left, never a prize beyond its count; the
// per-request maximum and what is left, exactly and one past; the jackpot marked only when
// drawn; a prize over a capacity to the present box; and the box after a retune lowered a
// prize's count.
import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, NOW, ok, runOp, withWealth, itemsOf } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';
import type { Master } from '../../../core/master/index.js';

const LANTERN = 1;
const OLD = 2;
const token = () => master().chest.get(LANTERN)!.cost.itemId;
const rich = (n = 1000): PlayerState => withWealth(freshPlayer(), { items: { [String(token())]: n } });
const stepSize = (step: number) =>
  master()
    .chest.get(LANTERN)!
    .steps[step]!.prizes.reduce((n, p) => n + p.count, 0);

/** Draws the whole current step, `chunk` at a time; returns the state and every prize id drawn. */
const drawStep = (t: Parameters<typeof ok>[0], s0: PlayerState, chunk = 10) => {
  let s = s0;
  const got: number[] = [];
  let i = 0;
  for (;;) {
    const left = ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response.remaining;
    if (left === 0) return { s, got };
    const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: Math.min(chunk, left) }, { seed: `d${i++}` });
    got.push(...r.response.results.map((x) => x.prizeId));
    s = r.state;
  }
};

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const m = master();
const lantern = m.chest.get(LANTERN)!;
const TOKEN = lantern.cost.itemId;
const boxSize = (step: number) => lantern.steps[step]!.prizes.reduce((n, p) => n + p.count, 0);
const jackpotOf = (step: number) => lantern.steps[step]!.prizes.find((p) => p.jackpot)!;
const plain = (step: number) => lantern.steps[step]!.prizes.filter((p) => !p.jackpot);

test('draw pays count × cost and yields count prizes from the box', (t) => {
  const s = rich(10);
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 4 });
  t.is(itemsOf(r.state)[String(token())], 6);
  t.is(r.response.results.length, 4);
  t.is(r.response.remaining, stepSize(0) - 4);
  t.is(r.state.counters['chestDraws'], 4);
});

test('drawing a whole step gives every prize exactly its count; then the empty box is 317; reset moves to step 2', (t) => {
  const { s, got } = drawStep(t, rich());
  for (const p of master().chest.get(LANTERN)!.steps[0]!.prizes)
    t.is(got.filter((id) => id === p.prizeId).length, p.count, `prize ${p.prizeId}`);
  t.true(s.chests[0]!.jackpotDrawn);
  t.is(s.counters['chestJackpots'], 1);
  fails(t, 'STATE_CONFLICT', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 });
  const r = ok(t, 'resetPlayerChest', s, { chestId: LANTERN });
  t.is(r.response.step, 2);
  t.is(r.response.remaining, stepSize(1));
  t.false(r.state.chests[0]!.jackpotDrawn);
});

test('draw: unknown 107, out of period 467, over the per-request maximum 102, more than is left 102, short of tokens 442', (t) => {
  const s = rich();
  fails(t, 'NOT_FOUND', 'drawPlayerChest', s, { chestId: 77, count: 1 });
  fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', withWealth(s, { items: { 30002: 100 } }), {
    chestId: OLD,
    count: 1,
  });
  fails(
    t,
    'CHEST_OUT_OF_PERIOD',
    'drawPlayerChest',
    s,
    { chestId: LANTERN, count: 1 },
    { now: NOW + 400 * 24 * 3600_000 },
  );
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, {
    chestId: LANTERN,
    count: master().social.chest.maxDrawCount + 1,
  });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: stepSize(0) + 1 });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: 0 });
  fails(t, 'ITEM_IS_SHORT', 'drawPlayerChest', rich(2), { chestId: LANTERN, count: 3 });
});

test('count may be social.chest.maxDrawCount and not one more: the refusal names count and the maximum', (t) => {
  // A copy of the master data whose maximum is below the box's size, so the boundary itself can be drawn.
  const max = 3;
  const m3: Master = { ...m, social: { ...m.social, chest: { ...m.social.chest, maxDrawCount: max } } };
  const r = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: max }, { m: m3 });
  t.is(r.response.results.length, max);
  const e = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', rich(), { chestId: LANTERN, count: max + 1 }, { m: m3 });
  t.like(e, { field: 'count' });
  t.regex(reasonOf(e), new RegExp(`\\b${max}\\b`), 'the reason gives the maximum');
  t.notRegex(reasonOf(e), /left/, 'the maximum, not what is left, refused it');
  // With the bundled maximum (above the box's size), a count at the maximum is refused for what is left, not for the maximum.
  const bundled = m.social.chest.maxDrawCount;
  t.true(bundled > boxSize(0));
  const atMax = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', rich(), { chestId: LANTERN, count: bundled });
  t.like(atMax, { field: 'count' });
  t.regex(reasonOf(atMax), new RegExp(`\\b${boxSize(0)}\\b.*left`), 'the reason gives what is left in the box');
  const over = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', rich(), { chestId: LANTERN, count: bundled + 1 });
  t.like(over, { field: 'count' });
  t.regex(reasonOf(over), new RegExp(`\\b${bundled}\\b`));
  t.notRegex(reasonOf(over), /left/);
});

test('count may be what is left in the box and not one more: the refusal says how many are left', (t) => {
  // Every prize drawn but the jackpot and one other: two left.
  const [keep, ...rest] = plain(0);
  const drawn = [
    ...rest.map((p) => ({ prizeId: p.prizeId, count: p.count })),
    { prizeId: keep!.prizeId, count: keep!.count - 1 },
  ];
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn, jackpotDrawn: false, resets: 0 }] };
  t.is(ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response.remaining, 2);
  const e = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: 3 });
  t.like(e, { field: 'count' });
  t.regex(reasonOf(e), /\b2\b/);
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 2 });
  t.deepEqual(
    r.response.results.map((x) => x.prizeId).sort((a, b) => a - b),
    [jackpotOf(0).prizeId, keep!.prizeId].sort((a, b) => a - b),
  );
  t.is(r.response.remaining, 0);
  t.true(r.response.jackpotDrawn);
});

test('an empty box is 317 with a reason; a reset before the jackpot is 317 with its own reason', (t) => {
  const all = lantern.steps[0]!.prizes.map((p) => ({ prizeId: p.prizeId, count: p.count }));
  const empty: PlayerState = {
    ...rich(),
    chests: [{ chestId: LANTERN, step: 0, drawn: all, jackpotDrawn: true, resets: 0 }],
  };
  const e = fails(t, 'STATE_CONFLICT', 'drawPlayerChest', empty, { chestId: LANTERN, count: 1 });
  t.regex(reasonOf(e), /empty/);
  const early = fails(t, 'STATE_CONFLICT', 'resetPlayerChest', rich(), { chestId: LANTERN });
  t.regex(reasonOf(early), /jackpot/);
});

test('a draw marks the jackpot drawn only when it draws the jackpot prize; until then reset is 317', (t) => {
  let found: PlayerState | undefined;
  for (let i = 0; i < 20 && !found; i++) {
    const r = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: 1 }, { seed: `plain${i}` });
    if (r.response.results[0]!.jackpot) continue;
    t.false(r.response.jackpotDrawn);
    t.false(r.state.chests[0]!.jackpotDrawn);
    found = r.state;
  }
  if (!found) {
    t.fail('no plain prize in 20 draws');
    return;
  }
  fails(t, 'STATE_CONFLICT', 'resetPlayerChest', found, { chestId: LANTERN });
});

test('a draw answers the step it drew from, counted from 1', (t) => {
  const r = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: 1 });
  t.is(r.response.step, 1);
  t.is(r.response.chestId, LANTERN);
  const second: PlayerState = {
    ...rich(),
    chests: [{ chestId: LANTERN, step: 1, drawn: [], jackpotDrawn: false, resets: 1 }],
  };
  t.is(ok(t, 'drawPlayerChest', second, { chestId: LANTERN, count: 1 }).response.step, 2);
});

// ---- weights and counts ----

test('property: any sequence of draws never takes a prize beyond its count, and drawn plus remaining is the box', (t) => {
  const prizes = master().chest.get(LANTERN)!.steps[0]!.prizes;
  const total = stepSize(0);
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
      fc.string({ maxLength: 8 }),
      (counts, seed) => {
        let s = rich();
        let drawn = 0;
        for (const [i, c] of counts.entries()) {
          const r = runOp('drawPlayerChest', s, { chestId: LANTERN, count: c }, { seed: `${seed}:${i}` });
          if (r._tag === 'Left') {
            if (drawn + c <= total) return false;
            continue;
          }
          s = r.right.state;
          drawn += c;
        }
        const p = s.chests[0];
        const sum = (p?.drawn ?? []).reduce((n, d) => n + d.count, 0);
        return (
          sum === drawn &&
          (p?.drawn ?? []).every((d) => d.count <= (prizes.find((x) => x.prizeId === d.prizeId)?.count ?? 0))
        );
      },
    ),
    { numRuns: 60 },
  );
  t.pass();
});

test('a draw is weighted by the remaining counts: first draws follow count / total', (t) => {
  const prizes = master().chest.get(LANTERN)!.steps[0]!.prizes;
  const total = stepSize(0);
  const seen = new Map<number, number>();
  const n = 400;
  const s = rich();
  for (let i = 0; i < n; i++) {
    const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { seed: `w${i}` });
    const id = r.response.results[0]!.prizeId;
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  for (const p of prizes)
    t.true(Math.abs((seen.get(p.prizeId) ?? 0) / n - p.count / total) < 0.08, `prize ${p.prizeId}`);
  // A prize whose count is used up is never drawn again.
  const jackpot = prizes.find((p) => p.jackpot)!;
  const gone: PlayerState = {
    ...s,
    chests: [
      {
        chestId: LANTERN,
        step: 0,
        drawn: [{ prizeId: jackpot.prizeId, count: jackpot.count }],
        jackpotDrawn: true,
        resets: 0,
      },
    ],
  };
  for (let i = 0; i < 50; i++) {
    const r = ok(t, 'drawPlayerChest', gone, { chestId: LANTERN, count: 1 }, { seed: `j${i}` });
    t.not(r.response.results[0]!.prizeId, jackpot.prizeId);
  }
});

test("after a retune lowered a prize's count below what was drawn, that prize is never drawn and the rest keep their remaining counts as weights", (t) => {
  // Step 1 retuned: prize 2's count 2 → 1, after the player drew it twice. Of the rest, the jackpot (1) and two of prize 3 are left.
  const [jp, second, third, ...others] = lantern.steps[0]!.prizes;
  const steps = lantern.steps.map((st, i) =>
    i === 0 ? { prizes: st.prizes.map((p) => (p.prizeId === second!.prizeId ? { ...p, count: 1 } : p)) } : st,
  );
  const retuned: Master = { ...m, chest: new Map([...m.chest, [LANTERN, { ...lantern, steps }]]) };
  const drawn = [
    { prizeId: second!.prizeId, count: 2 },
    { prizeId: third!.prizeId, count: third!.count - 2 },
    ...others.map((p) => ({ prizeId: p.prizeId, count: p.count })),
  ];
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn, jackpotDrawn: false, resets: 0 }] };
  const n = 300;
  let jackpots = 0;
  for (let i = 0; i < n; i++) {
    const id = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { seed: `retune${i}`, m: retuned }).response
      .results[0]!.prizeId;
    t.true(id === jp!.prizeId || id === third!.prizeId, `prize ${id}`);
    if (id === jp!.prizeId) jackpots++;
  }
  // The jackpot's weight is 1 of the 3 prizes left.
  t.true(Math.abs(jackpots / n - 1 / 3) < 0.08, `jackpot share ${jackpots / n}`);
});

test("after a retune lowered a prize's count below what was drawn, none of it is left (0, never negative), and the box counts the rest", (t) => {
  // Step 1 retuned: prize 2's count 2 → 1 after the player drew it twice; everything but the jackpot drawn.
  const [jp, second, ...others] = lantern.steps[0]!.prizes;
  const steps = lantern.steps.map((st, i) =>
    i === 0 ? { prizes: st.prizes.map((p) => (p.prizeId === second!.prizeId ? { ...p, count: 1 } : p)) } : st,
  );
  const retuned: Master = { ...m, chest: new Map([...m.chest, [LANTERN, { ...lantern, steps }]]) };
  const drawn = [
    { prizeId: second!.prizeId, count: 2 },
    ...others.map((p) => ({ prizeId: p.prizeId, count: p.count })),
  ];
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn, jackpotDrawn: false, resets: 0 }] };
  const step = ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }, { m: retuned }).response;
  t.is(step.prizes.find((p) => p.prizeId === second!.prizeId)?.remaining, 0);
  t.is(step.remaining, jp!.count, 'the jackpot is all that is left');
  // The box is not empty: the jackpot is drawn.
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { m: retuned });
  t.is(r.response.results[0]!.prizeId, jp!.prizeId);
});

// ---- prizes ----

test('a prize over a capacity goes to the present box, from the chest, as a reward', (t) => {
  // Every currency and prize item at its maximum: whatever is drawn does not fit.
  const cap = m.game.currencyMax;
  const full: Record<string, number> = { [String(TOKEN)]: 10 };
  for (const p of lantern.steps[0]!.prizes)
    if (p.grant.kind === 'item') full[String(p.grant.objectId)] = m.item.get(p.grant.objectId)!.max;
  const s = withWealth(freshPlayer(), { gold: cap.gold, gem: cap.gem, items: full });
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 3 });
  for (const x of r.response.results) {
    t.not(x.managedPresentId, null, `prize ${x.prizeId} went to the present box`);
    const p = r.state.presents.find((q) => q.managedPresentId === x.managedPresentId)!;
    t.like(p, { kind: x.kind, objectId: x.objectId, title: lantern.name, source: 'reward', deadline: null });
    t.true(p.message.length > 0, 'the present says why it is there');
  }
  t.is(r.state.gold, cap.gold);
});
