// Box-event chests: each step is a box of prizes with counts and one jackpot; a draw
// takes a prize weighted by the remaining counts; a reset, allowed only after the
// jackpot, moves to the next step's full box (the last step repeats).
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { ChestIndexed, ChestPrize } from '../master/social.js';
import type { PlayerState } from '../state.js';
import type { ChestProgress } from '../state/social.js';
import { pickWeighted } from '../rng.js';
import { fail, ok, type Result } from '../shared/result.js';
import { pay } from '../shared/pay.js';
import { itemCount } from '../shared/player.js';
import { grantAll } from '../shared/grant.js';
import { bumpCounter } from '../shared/counters.js';
import { optTime, timeText } from '../view.js';
import { chestRemaining } from '../views/social.js';
import { WireTime, nullable } from '../views/codecs.js';
import { GrantKind } from '../master/common.js';
import * as api from '../api/chest.js';
import { type ChestView } from '../api/chest.js';
export { ChestView } from '../api/chest.js';

const chestOf = (m: Master, chestId: number): Result<ChestIndexed, 'NOT_FOUND'> => {
  const c = m.chest.get(chestId);
  return c ? ok(c) : fail('NOT_FOUND', { entity: 'chest', id: chestId });
};
const openNow = (c: ChestIndexed, now: number): boolean => now >= c.startsAt && (c.endsAt === null || now < c.endsAt);
const openChest = (
  m: Master,
  chestId: number,
  now: number,
): Result<ChestIndexed, 'NOT_FOUND' | 'CHEST_OUT_OF_PERIOD'> => {
  const c = chestOf(m, chestId);
  if (c._tag === 'Left') return c;
  return openNow(c.right, now) ? c : fail('CHEST_OUT_OF_PERIOD', { chestId });
};

const progressOf = (s: PlayerState, chestId: number): ChestProgress =>
  s.chests.find((p) => p.chestId === chestId) ?? { chestId, step: 0, drawn: [], jackpotDrawn: false, resets: 0 };

const putProgress = (s: PlayerState, p: ChestProgress): PlayerState => {
  const i = s.chests.findIndex((x) => x.chestId === p.chestId);
  const chests =
    i < 0 ? [...s.chests, p].sort((a, b) => a.chestId - b.chestId) : s.chests.map((x, j) => (j === i ? p : x));
  return { ...s, chests };
};

const leftIn = (m: Master, p: ChestProgress): number => chestRemaining(m, p).reduce((n, x) => n + x.remaining, 0);

const prizeView = (p: ChestPrize) => ({
  prizeId: p.prizeId,
  kind: p.grant.kind,
  objectId: p.grant.objectId,
  amount: p.grant.amount,
  jackpot: p.jackpot,
});

const stepView = (m: Master, c: ChestIndexed, p: ChestProgress) => ({
  chestId: c.chestId,
  step: p.step + 1,
  stepCount: c.steps.length,
  jackpotDrawn: p.jackpotDrawn,
  resets: p.resets,
  remaining: leftIn(m, p),
  prizes: chestRemaining(m, p).map((x) => ({ ...prizeView(x.prize), count: x.prize.count, remaining: x.remaining })),
});

// ---- get_all ----
const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master: m }) => {
    const ctx = { master: m, now };
    const chests = m.chests.flatMap((raw): ChestView[] => {
      const c = m.chest.get(raw.chestId) as ChestIndexed;
      if (!openNow(c, now)) return [];
      const p = progressOf(s, c.chestId);
      const box = chestRemaining(m, p);
      return [
        {
          chestId: c.chestId,
          name: c.name,
          startAt: timeText(ctx, c.startsAt),
          endAt: optTime(ctx, c.endsAt),
          costItemId: c.cost.itemId,
          costAmount: c.cost.amount,
          held: itemCount(s, c.cost.itemId),
          step: p.step + 1,
          stepCount: c.steps.length,
          jackpotDrawn: p.jackpotDrawn,
          resets: p.resets,
          remaining: box.reduce((n, x) => n + x.remaining, 0),
          total: box.reduce((n, x) => n + x.prize.count, 0),
        },
      ];
    });
    return ok({ state: s, response: { chests } });
  },
});

// ---- get_step ----
const getStep = implementOp(api.getStep, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const c = chestOf(m, req.chestId);
    if (c._tag === 'Left') return c;
    return ok({ state: s, response: stepView(m, c.right, progressOf(s, req.chestId)) });
  },
});

// ---- draw ----
const draw = implementOp(api.draw, {
  reduce: (s, req, rng, now, { master: m }) => {
    const max = m.social.chest.maxDrawCount;
    if (req.count > max) return fail('INVALID_PARAMETERS', { field: 'count', reason: `must be at most ${max}` });
    const cr = openChest(m, req.chestId, now);
    if (cr._tag === 'Left') return cr;
    const c = cr.right;
    let p = progressOf(s, c.chestId);
    const left = leftIn(m, p);
    if (left === 0) return fail('STATE_CONFLICT', { reason: 'the box is empty: reset it after its jackpot' });
    if (req.count > left)
      return fail('INVALID_PARAMETERS', { field: 'count', reason: `only ${left} prizes are left in the box` });
    const paid = pay(m, s, { items: [{ itemId: c.cost.itemId, amount: c.cost.amount * req.count }] }, now);
    if (paid._tag === 'Left') return paid;
    const won: ChestPrize[] = [];
    for (let i = 0; i < req.count; i++) {
      // Stryker disable next-line EqualityOperator,MethodExpression,ConditionalExpression: equivalent (the filter only drops prizes with nothing left, weight 0 (chestRemaining never goes below 0), which pickWeighted never picks and which add nothing to its total; its `false` mutant, all prizes dropped, is killed)
      const box = chestRemaining(m, p)
        .filter((x) => x.remaining > 0)
        .map((x) => ({ prize: x.prize, weight: x.remaining }));
      const prize = pickWeighted(rng, box).prize;
      won.push(prize);
      const had = p.drawn.find((d) => d.prizeId === prize.prizeId);
      const drawn = had
        ? p.drawn.map((d) => (d === had ? { prizeId: d.prizeId, count: d.count + 1 } : d))
        : [...p.drawn, { prizeId: prize.prizeId, count: 1 }];
      p = { ...p, drawn, jackpotDrawn: p.jackpotDrawn || prize.jackpot };
    }
    const meta = {
      title: c.name,
      message: 'A chest prize that did not fit in your storage.',
      source: 'reward',
      deadline: null,
    };
    const granted = grantAll(
      m,
      putProgress(paid.right, p),
      won.map((x) => x.grant),
      now,
      meta,
    );
    if (granted._tag === 'Left') return granted;
    const jackpots = won.filter((x) => x.jackpot).length;
    const next = bumpCounter(bumpCounter(granted.right.state, 'chestDraws', req.count), 'chestJackpots', jackpots);
    return ok({
      state: next,
      response: {
        chestId: c.chestId,
        step: p.step + 1,
        results: won.map((x, i) => ({
          ...prizeView(x),
          managedPresentId: granted.right.outcomes[i]?.managedPresentId ?? null,
        })),
        remaining: leftIn(m, p),
        jackpotDrawn: p.jackpotDrawn,
      },
    });
  },
});

// ---- reset ----
const reset = implementOp(api.reset, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const cr = openChest(m, req.chestId, now);
    if (cr._tag === 'Left') return cr;
    const c = cr.right;
    const p = progressOf(s, c.chestId);
    if (!p.jackpotDrawn) return fail('STATE_CONFLICT', { reason: 'the jackpot of this box has not been drawn yet' });
    const next: ChestProgress = {
      chestId: c.chestId,
      step: Math.min(p.step + 1, c.steps.length - 1),
      drawn: [],
      jackpotDrawn: false,
      resets: p.resets + 1,
    };
    return ok({ state: putProgress(s, next), response: stepView(m, c, next) });
  },
});

export const chestOps = [draw, getAll, getStep, reset] as const;
