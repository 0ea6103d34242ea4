// Wire views of the log-in bonus: where the player is on each track (get_all's
// loginBonus), and the log-in's answer, which adds what that log-in gave.
import * as t from 'io-ts';
import { GrantKind } from '../master/common.js';
import type { BonusPresent } from '../master/loginBonus.js';
import type { PlayerState } from '../state.js';
import { dayStart } from '../shared/missions.js';
import {
  bonusDay,
  cycleDayOf,
  liveStreak,
  milestoneRewards,
  nextMilestone,
  type BonusOutcome,
} from '../shared/loginBonus.js';
import {
  collection,
  loginBonusProps,
  nullable,
  WireTime,
  type BonusRewardView,
  type CollectionView,
  type LoginBonusView,
} from './codecs.js';
import { optTime, timeText, type ViewCtx } from './context.js';

/** A present the log-in put in the gift box, and the track it came from. */
export const BonusPresentView = t.type(
  {
    track: t.keyof({ consecutive: null, total: null }),
    managedPresentId: t.number,
    kind: GrantKind,
    objectId: t.number,
    amount: t.number,
    title: t.string,
    message: t.string,
    deadline: nullable(WireTime),
  },
  'LoginBonusPresent',
);
export type BonusPresentView = t.TypeOf<typeof BonusPresentView>;

/** The log-in's answer: what this log-in gave (null: nothing), and the tracks as get_all shows them. */
export const LoginBonusAnswer = t.type(
  {
    given: nullable(
      t.type(
        {
          /** The consecutive cycle's day given (null: the calendar has no consecutive days). */
          consecutiveDay: nullable(t.number),
          /** Game days with a bonus in all, this one counted. */
          totalDays: t.number,
          /** Each reward, as the present holding it (receive it with present/get). */
          presents: t.array(BonusPresentView),
        },
        'LoginBonusGiven',
      ),
    ),
    /** Today's bonus waits: the gift box cannot take it (presents.boxMax). Receive presents, then log in again. */
    boxFull: t.boolean,
    ...loginBonusProps,
  },
  'LoginBonusAnswer',
);
export type LoginBonusAnswer = t.TypeOf<typeof LoginBonusAnswer>;

const rewardsView = (rs: ReadonlyArray<BonusPresent>): BonusRewardView[] =>
  rs.map((r) => ({ kind: r.grant.kind, objectId: r.grant.objectId, amount: r.grant.amount, title: r.title }));

/** Where the player is on each track at ctx.now; what comes next is what the next first log-in of a game day gives. */
export const loginBonusView = (s: PlayerState, ctx: ViewCtx): LoginBonusView => {
  const m = ctx.master;
  const today = bonusDay(m, ctx.now);
  const lb = s.loginBonus;
  const streak = liveStreak(s, today);
  // The next bonus continues the streak: from yesterday's (today's not given yet) or today's.
  const nextDay = cycleDayOf(m, streak + 1);
  const nextTotal = nextMilestone(m, lb.totalDays);
  return {
    givenToday: lb.lastDay !== null && lb.lastDay >= today,
    nextDayAt: timeText(ctx, dayStart(m, today + 1)),
    consecutive: {
      streak,
      day: streak === 0 ? 0 : (cycleDayOf(m, streak) ?? 0),
      cycleLength: m.loginBonus.consecutive.length,
      next:
        nextDay === null
          ? null
          : { day: nextDay, rewards: rewardsView(m.loginBonus.consecutive[nextDay - 1]?.rewards ?? []) },
    },
    total: {
      days: lb.totalDays,
      next: nextTotal === null ? null : { days: nextTotal, rewards: rewardsView(milestoneRewards(m, nextTotal)) },
    },
  };
};

/** The log-in's answer of a bonus outcome (its state is the one after the log-in). */
export const loginBonusAnswer = (o: BonusOutcome, ctx: ViewCtx): LoginBonusAnswer => ({
  given:
    o.given === null
      ? null
      : {
          consecutiveDay: o.given.consecutiveDay,
          totalDays: o.given.totalDays,
          presents: o.given.presents.map(({ track, present: p }) => ({
            track,
            managedPresentId: p.managedPresentId,
            kind: p.kind,
            objectId: p.objectId,
            amount: p.amount,
            title: p.title,
            message: p.message,
            deadline: optTime(ctx, p.deadline),
          })),
        },
  boxFull: o.boxFull,
  ...loginBonusView(o.state, ctx),
});

/** get_all's loginBonus; no session's operation changes it (only a log-in does), so no answer's changes carry it. */
export const loginBonusCollections: ReadonlyArray<CollectionView> = [
  collection({
    wire: 'loginBonus',
    changed: (a, b) => a.loginBonus !== b.loginBonus,
    view: (s, ctx) => loginBonusView(s, ctx),
  }),
];
