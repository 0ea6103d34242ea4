// Craft offers: conditions (player level, a cleared quest), materials, a duration and
// rewards. get_all lists the startable and on-going ones; order pays and starts the
// timer; complete, once the timer has passed, gives the rewards.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import { type Offer } from '../master/social.js';
import { Grant } from '../master/common.js';
import type { PlayerState } from '../state.js';
import type { OfferRun } from '../state/social.js';
import { SECOND } from '../time.js';
import { fail, ok, type Result } from '../shared/result.js';
import { pay } from '../shared/pay.js';
import { grantAll } from '../shared/grant.js';
import { bumpCounter } from '../shared/counters.js';
import { isDone, startTimer } from '../shared/timer.js';
import { offerRunView } from '../views/social.js';
import { OfferRunView, WireTime, nullable } from '../views/codecs.js';
import * as api from '../api/offer.js';
import { type OfferView } from '../api/offer.js';
export { OfferView } from '../api/offer.js';

const offerOf = (m: Master, offerId: number): Result<Offer, 'NOT_FOUND'> => {
  const o = m.offer.get(offerId);
  return o ? ok(o) : fail('NOT_FOUND', { entity: 'offer', id: offerId });
};

const completions = (s: PlayerState, offerId: number): number =>
  s.offerCompletions.find((x) => x.offerId === offerId)?.count ?? 0;

/** Why the player cannot start an offer now, or null when it can. */
const blocker = (m: Master, s: PlayerState, o: Offer): string | null => {
  if (s.offers.some((r) => r.offerId === o.offerId)) return `offer ${o.offerId} is already on-going`;
  if (o.limit !== null && completions(s, o.offerId) >= o.limit)
    return `offer ${o.offerId} was already completed ${o.limit} times`;
  if (s.level < o.requires.playerLevel) return `offer ${o.offerId} needs player level ${o.requires.playerLevel}`;
  const q = o.requires.questId;
  if (q !== null && !s.questRecords.some((r) => r.questId === q && r.clears > 0))
    return `offer ${o.offerId} needs quest ${q} cleared`;
  if (s.offers.length >= m.social.offer.maxActive) return `at most ${m.social.offer.maxActive} offers can be on-going`;
  return null;
};

const offerView = (s: PlayerState, o: Offer): OfferView => ({
  offerId: o.offerId,
  name: o.name,
  requires: o.requires,
  materials: o.materials,
  durationSeconds: o.durationSeconds,
  rewards: o.rewards,
  limit: o.limit,
  completed: completions(s, o.offerId),
});

const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master: m }) =>
    ok({
      state: s,
      response: {
        offers: m.offers.filter((o) => blocker(m, s, o) === null).map((o) => offerView(s, o)),
        ongoing: s.offers.map((r) => offerRunView(r, { master: m, now })),
        maxActive: m.social.offer.maxActive,
      },
    }),
});

const order = implementOp(api.order, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const or = offerOf(m, req.offerId);
    if (or._tag === 'Left') return or;
    const o = or.right;
    const why = blocker(m, s, o);
    if (why !== null) return fail('STATE_CONFLICT', { reason: why });
    const paid = pay(m, s, { gold: o.materials.gold, items: o.materials.items }, now);
    if (paid._tag === 'Left') return paid;
    const run: OfferRun = { offerId: o.offerId, ...startTimer(now, o.durationSeconds * SECOND) };
    const view = offerRunView(run, { master: m, now });
    return ok({
      state: { ...paid.right, offers: [...paid.right.offers, run] },
      response: { offerId: o.offerId, completesAt: view.completesAt },
    });
  },
});

const complete = implementOp(api.complete, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const or = offerOf(m, req.offerId);
    if (or._tag === 'Left') return or;
    const o = or.right;
    const run = s.offers.find((r) => r.offerId === o.offerId);
    if (!run) return fail('NOT_FOUND', { entity: 'on-going offer', id: o.offerId });
    if (!isDone(run, now)) return fail('TIMER_RUNNING', { entity: `offer ${o.offerId}`, completesAt: run.completesAt });
    const count = completions(s, o.offerId) + 1;
    const had = s.offerCompletions.some((x) => x.offerId === o.offerId);
    const offerCompletions = had
      ? s.offerCompletions.map((x) => (x.offerId === o.offerId ? { offerId: x.offerId, count } : x))
      : [...s.offerCompletions, { offerId: o.offerId, count }].sort((a, b) => a.offerId - b.offerId);
    const base = { ...s, offers: s.offers.filter((r) => r !== run), offerCompletions };
    const meta = {
      title: o.name,
      message: 'A craft reward that did not fit in your storage.',
      source: 'reward',
      deadline: null,
    };
    const granted = grantAll(m, base, o.rewards, now, meta);
    if (granted._tag === 'Left') return granted;
    return ok({
      state: bumpCounter(granted.right.state, 'offersCompleted'),
      response: {
        offerId: o.offerId,
        rewards: granted.right.outcomes.map((x) => ({ ...x.grant, managedPresentId: x.managedPresentId })),
      },
    });
  },
});

export const offerOps = [complete, getAll, order] as const;
