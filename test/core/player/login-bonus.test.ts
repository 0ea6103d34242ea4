// The daily log-in bonus (issue 32; core/shared/loginBonus.ts, docs/rules/foundation.md,
// "Log-in bonus"): the first log-in of a game day advances the consecutive and total
// tracks and puts that day's rewards in the gift box; a second one the same game day
// gives nothing; the game day begins at game.json's dayResetHour in the game's zone; a
// missed day restarts the streak, not the total; the cycle wraps; milestones (and
// repeating ones); a full gift box; no calendar (older master data); replay.
import test, { type ExecutionContext } from 'ava';
import { master, NOW } from '../../_support/core.js';
import { parseTime, DAY, HOUR } from '../../../core/time.js';
import { rngFromSeed } from '../../../core/rng.js';
import { tokenHash } from '../../../core/secret.js';
import { OPERATIONS, runNamed } from '../../../core/operations/table.js';
import { answerCodec, execute } from '../../../core/operation.js';
import { answerProblems } from '../../../core/answer-check.js';
import { decodeState, groupDefaults, type PlayerState } from '../../../core/state.js';
import { fullView } from '../../../core/view.js';
import type { Master } from '../../../core/master/index.js';
import type { LoginBonusConfig } from '../../../core/master/loginBonus.js';
import { LOGIN_BONUS_DEFAULT } from '../../../core/master/defaults.js';
import { LOGIN_BONUS_SOURCE, nextMilestone } from '../../../core/shared/loginBonus.js';
import type { LoginBonusAnswer } from '../../../core/views/loginBonus.js';
import { created, issued, right, TOKEN, UUID } from './_account.js';

const m = master();
const TOKEN_OF_AKI = 'token-of-aki-00001';
const OFFSET = m.game.timezoneOffsetMinutes;
/** A game-local time (`YYYY-MM-DDTHH:mm:ss` in the game's zone) as an instant. */
const at = (local: string): number => parseTime(local, OFFSET) ?? Number.NaN;
/** The game day of an instant, computed here from its definition: local days shifted by the reset hour. */
const gameDayOf = (ms: number): number => Math.floor((ms + OFFSET * 60_000 - m.game.dayResetHour * HOUR) / DAY);
/** Noon of the n-th calendar day after the sign-up's (NOW is 2026-11-21T12:00 local). */
const noon = (n: number): number => NOW + n * DAY;

/** A master set with another calendar (or a smaller gift box). */
const withCalendar = (loginBonus: LoginBonusConfig, boxMax = m.game.presents.boxMax): Master => ({
  ...m,
  loginBonus,
  game: { ...m.game, presents: { ...m.game.presents, boxMax } },
});
const gold = (amount: number, title = 'g') => ({
  grant: { kind: 'gold' as const, objectId: 0, amount },
  title,
  message: '',
});

interface LoggedIn {
  readonly state: PlayerState;
  readonly bonus: LoginBonusAnswer;
}
/** A log-in at `now` as the service runs it; the answer is checked against the entry's codec, field by field. */
const loginAt = (t: ExecutionContext, s: PlayerState, now: number, mm: Master = m): LoggedIn => {
  const r = right(
    t,
    runNamed('loginPlayer', s, { uuid: UUID, accessToken: TOKEN_OF_AKI }, rngFromSeed('login'), now, {
      master: mm,
      others: [],
      issued: issued(TOKEN, 'session-1'),
    }),
  );
  const problems = answerProblems(answerCodec(LOGIN_ENTRY), JSON.parse(JSON.stringify(r.response)));
  t.deepEqual(problems, [], 'the answer is what the entry declares');
  return { state: r.state, bonus: r.response.loginBonus };
};
/** Log-ins at each instant in turn; the outcome of each. */
const loginsAt = (t: ExecutionContext, s: PlayerState, nows: ReadonlyArray<number>, mm: Master = m): LoggedIn[] => {
  const out: LoggedIn[] = [];
  let cur = s;
  for (const now of nows) {
    const r = loginAt(t, cur, now, mm);
    out.push(r);
    cur = r.state;
  }
  return out;
};
const NEW_DEVICE = '11111111-2222-4333-8444-555555555555';
const LOGIN_ENTRY = OPERATIONS.find((o) => o.name === 'loginPlayer')!;
const bonusPresents = (s: PlayerState) => s.presents.filter((p) => p.source === LOGIN_BONUS_SOURCE);

test('the first log-in of a game day gives day 1 and the first total milestone: each reward a present in the gift box, named in the answer', (t) => {
  const s = created();
  const { state, bonus } = loginAt(t, s, NOW + HOUR);
  const cfg = m.loginBonus;
  const expected = [...cfg.consecutive[0]!.rewards, ...cfg.total[0]!.rewards];
  const added = bonusPresents(state);
  t.deepEqual(
    added.map((p) => ({ kind: p.kind, objectId: p.objectId, amount: p.amount, title: p.title, message: p.message })),
    expected.map((r) => ({ ...r.grant, title: r.title, message: r.message })),
  );
  t.is(state.presents.length, s.presents.length + expected.length, 'nothing else was added, nothing taken');
  t.deepEqual(
    added.map((p) => p.deadline),
    expected.map((r) => (r.deadlineDays === undefined ? null : NOW + HOUR + r.deadlineDays * DAY)),
    'the deadlines run from the log-in',
  );
  t.deepEqual(state.loginBonus, { streak: 1, totalDays: 1, lastDay: gameDayOf(NOW + HOUR) });
  t.like(bonus, { boxFull: false, givenToday: true, consecutive: { streak: 1, day: 1, cycleLength: 7 } });
  t.is(bonus.given?.consecutiveDay, 1);
  t.is(bonus.given?.totalDays, 1);
  t.deepEqual(
    bonus.given?.presents.map((p) => [p.track, p.managedPresentId]),
    [
      ['consecutive', added[0]!.managedPresentId],
      ['total', added[1]!.managedPresentId],
    ],
  );
  t.is(bonus.given?.presents[0]?.deadline, '2026-12-21T13:00:00');
  t.is(bonus.nextDayAt, '2026-11-22T04:00:00');
  t.is(state.lastLoginAt, NOW + HOUR, 'the log-in is marked as ever');
});

test('a second log-in the same game day gives nothing and changes only lastLoginAt; the answer says the day is taken', (t) => {
  const [first, second] = loginsAt(t, created(), [NOW, at('2026-11-22T03:59:59')]);
  t.is(second!.bonus.given, null);
  t.false(second!.bonus.boxFull);
  t.true(second!.bonus.givenToday);
  t.deepEqual(second!.state, { ...first!.state, lastLoginAt: at('2026-11-22T03:59:59'), version: 2 });
  t.like(second!.bonus, { consecutive: { streak: 1, day: 1, next: { day: 2 } }, total: { days: 1 } });
});

test('the game day begins at the reset hour in the game zone: 03:59:59 local is still the day before, 04:00:00 the next', (t) => {
  // Signed up and first logged in on the 21st at noon (local); the 22nd's game day begins at 04:00 local (19:00 UTC on the 21st).
  const [, before, after] = loginsAt(t, created(), [NOW, at('2026-11-22T03:59:59'), at('2026-11-22T04:00:00')]);
  t.is(before!.bonus.given, null, 'the same game day');
  t.is(after!.bonus.given?.consecutiveDay, 2, 'a new game day');
  t.is(at('2026-11-22T04:00:00'), Date.UTC(2026, 10, 21, 19, 0, 0), 'the reset is 04:00 at +09:00');
  // Just before the reset the next bonus is an instant away; just after, it has been given.
  t.is(before!.bonus.nextDayAt, '2026-11-22T04:00:00');
  t.is(after!.bonus.nextDayAt, '2026-11-23T04:00:00');
});

test('the next game day gives day 2; every day in a row goes on through the cycle, and after its last day it begins again at 1', (t) => {
  const days = Array.from({ length: 16 }, (_, i) => noon(i));
  const runs = loginsAt(t, created(), days);
  t.deepEqual(
    runs.map((r) => r.bonus.given?.consecutiveDay),
    [1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2],
  );
  t.deepEqual(
    runs.map((r) => r.state.loginBonus.streak),
    days.map((_, i) => i + 1),
    'the streak counts on; the cycle day is derived from it',
  );
  const day2 = runs[1]!;
  const reward = m.loginBonus.consecutive[1]!.rewards[0]!;
  t.like(day2.bonus.given?.presents[0], { track: 'consecutive', ...reward.grant, title: reward.title });
  t.like(runs[6]!.bonus.consecutive, { day: 7, next: { day: 1 } }, 'after day 7 comes day 1');
});

test('a missed game day starts the streak again at day 1; the total goes on', (t) => {
  const [, , , afterGap] = loginsAt(t, created(), [noon(0), noon(1), noon(2), noon(4)]);
  t.is(afterGap!.bonus.given?.consecutiveDay, 1);
  t.is(afterGap!.bonus.given?.totalDays, 4);
  t.deepEqual(afterGap!.state.loginBonus, { streak: 1, totalDays: 4, lastDay: gameDayOf(noon(4)) });
});

test('the view tells a broken streak before the next log-in: streak 0 and day 1 next, once a whole game day passed without a bonus', (t) => {
  const [last] = loginsAt(t, created(), [noon(0)]);
  const view = (now: number) => fullView(last!.state, { master: m, now }).loginBonus;
  t.like(view(noon(0)), { givenToday: true, consecutive: { streak: 1, day: 1, next: { day: 2 } } });
  t.like(
    view(noon(1)),
    { givenToday: false, consecutive: { streak: 1, day: 1, next: { day: 2 } } },
    'yesterday: still on',
  );
  t.like(view(noon(2)), { givenToday: false, consecutive: { streak: 0, day: 0, next: { day: 1 } } }, 'broken');
  t.like(view(noon(2)), { total: { days: 1, next: { days: 5 } } }, 'the total stays');
});

test('total milestones are given when the total reaches them, whatever the streak; the next one is shown', (t) => {
  // Every other day: the streak never passes 1; the total counts 1, 2, 3…
  const runs = loginsAt(
    t,
    created(),
    Array.from({ length: 10 }, (_, i) => noon(2 * i)),
  );
  t.deepEqual(
    runs.map((r) => r.bonus.given?.consecutiveDay),
    Array.from({ length: 10 }, () => 1),
  );
  const milestoneAt = runs.map((r) => (r.bonus.given?.presents ?? []).filter((p) => p.track === 'total').length);
  t.deepEqual(milestoneAt, [1, 0, 0, 0, 1, 0, 0, 0, 0, 1], 'at totals 1, 5 and 10');
  const five = m.loginBonus.total.find((x) => x.days === 5)!.rewards[0]!;
  t.like(
    runs[4]!.bonus.given?.presents.find((p) => p.track === 'total'),
    { ...five.grant, title: five.title },
  );
  t.like(runs[0]!.bonus.total, { days: 1, next: { days: 5, rewards: [{ ...five.grant, title: five.title }] } });
  t.like(runs[9]!.bonus.total, { days: 10, next: { days: 20 } });
});

test('a repeating milestone is given at its days and then every repeatEvery days; milestones that meet give together', (t) => {
  const mm = withCalendar({
    consecutive: [],
    total: [
      { days: 2, repeatEvery: 3, rewards: [gold(7, 'every 3')] },
      { days: 5, repeatEvery: null, rewards: [gold(11, 'five')] },
    ],
  });
  const runs = loginsAt(
    t,
    created(),
    Array.from({ length: 9 }, (_, i) => noon(i)),
    mm,
  );
  t.deepEqual(
    runs.map((r) => (r.bonus.given?.presents ?? []).map((p) => p.title)),
    [[], ['every 3'], [], [], ['every 3', 'five'], [], [], ['every 3'], []],
  );
  t.true(
    runs.every((r) => r.bonus.given?.consecutiveDay === null),
    'no consecutive days: no cycle day',
  );
  t.deepEqual(
    runs.map((r) => r.bonus.total.next?.days),
    [2, 5, 5, 5, 8, 8, 8, 11, 11],
  );
  t.deepEqual(runs[3]!.bonus.total.next?.rewards, [
    { kind: 'gold', objectId: 0, amount: 7, title: 'every 3' },
    { kind: 'gold', objectId: 0, amount: 11, title: 'five' },
  ]);
  t.like(runs[0]!.bonus.consecutive, { cycleLength: 0, next: null, streak: 1, day: 0 });
  t.is(nextMilestone(withCalendar({ consecutive: [], total: [{ days: 3, repeatEvery: null, rewards: [] }] }), 3), null);
});

test('a full gift box holds the day back: the log-in succeeds, nothing is given or counted, and a log-in after presents are received gives it', (t) => {
  const s = created();
  const mm = withCalendar(m.loginBonus, s.presents.length);
  const full = loginAt(t, s, noon(0), mm);
  t.true(full.bonus.boxFull);
  t.is(full.bonus.given, null);
  t.false(full.bonus.givenToday);
  t.deepEqual(full.state, { ...s, lastLoginAt: noon(0), version: 1 }, 'only the log-in is marked');
  // One present received (the box has room for one): the day gives two, so it still waits, whole.
  const roomForOne = { ...full.state, presents: full.state.presents.slice(1) };
  const still = loginAt(t, roomForOne, noon(0) + HOUR, mm);
  t.true(still.bonus.boxFull);
  t.deepEqual(still.state.presents, roomForOne.presents);
  const emptied = { ...still.state, presents: [] };
  const given = loginAt(t, emptied, noon(0) + 2 * HOUR, mm);
  t.false(given.bonus.boxFull);
  t.is(given.bonus.given?.consecutiveDay, 1);
  t.is(given.state.presents.length, 2);
});

test('a game day that ends with its bonus held by a full box is a missed day: the streak starts again', (t) => {
  const s = created();
  const mm = withCalendar(m.loginBonus, s.presents.length + 2);
  const [first, held] = loginsAt(t, s, [noon(0), noon(1)], mm);
  t.is(first!.bonus.given?.consecutiveDay, 1);
  t.true(held!.bonus.boxFull);
  const later = loginAt(t, { ...held!.state, presents: [] }, noon(2), mm);
  t.is(later.bonus.given?.consecutiveDay, 1);
  t.is(later.bonus.given?.totalDays, 2);
});

test('an expired present makes room: the box counts what is still there, as every present does', (t) => {
  const s = created();
  const mm = withCalendar(m.loginBonus, s.presents.length);
  const expiring = {
    ...s,
    presents: s.presents.map((p, i) => (i < 2 ? { ...p, deadline: noon(0) - 1 } : p)),
  };
  const r = loginAt(t, expiring, noon(0), mm);
  t.false(r.bonus.boxFull);
  t.is(r.bonus.given?.presents.length, 2);
  t.is(r.state.presents.length, s.presents.length);
});

test('without a calendar (master data before issue 32) a log-in gives and tracks nothing', (t) => {
  const mm = withCalendar(LOGIN_BONUS_DEFAULT);
  const s = created();
  const r = loginAt(t, s, noon(0), mm);
  t.deepEqual(r.state, { ...s, lastLoginAt: noon(0), version: 1 });
  t.deepEqual(r.state.loginBonus, groupDefaults.loginBonus);
  t.like(r.bonus, {
    given: null,
    boxFull: false,
    givenToday: false,
    consecutive: { streak: 0, day: 0, cycleLength: 0, next: null },
    total: { days: 0, next: null },
  });
});

test('a clock set back never gives a game day twice: a day before the last one given gives nothing', (t) => {
  const [, back] = loginsAt(t, created(), [noon(3), noon(1)]);
  t.is(back!.bonus.given, null);
  t.is(back!.state.loginBonus.totalDays, 1);
});

test('sign-up and the move are not log-ins: they give no bonus; the log-in after them does', (t) => {
  const s = created();
  t.deepEqual(s.loginBonus, groupDefaults.loginBonus);
  t.deepEqual(bonusPresents(s), []);
  const coded = right(
    t,
    runNamed('getPlayerMove', s, { password: 'secret123' }, rngFromSeed('mv'), NOW, { master: m, others: [] }),
  ).state;
  const moved = right(
    t,
    runNamed(
      'setPlayerMove',
      coded,
      { moveCode: coded.move!.code, movePassword: 'secret123', uuid: NEW_DEVICE, platform: 2 },
      rngFromSeed('mv'),
      NOW + HOUR,
      { master: m, others: [], issued: issued(TOKEN) },
    ),
  ).state;
  t.is(moved.account.uuid, NEW_DEVICE);
  t.deepEqual(moved.loginBonus, groupDefaults.loginBonus);
  t.deepEqual(bonusPresents(moved), []);
  const r = right(
    t,
    runNamed('loginPlayer', moved, { uuid: NEW_DEVICE, accessToken: TOKEN }, rngFromSeed('li'), NOW + 2 * HOUR, {
      master: m,
      others: [],
      issued: issued(TOKEN),
    }),
  );
  t.is(r.response.loginBonus.given?.consecutiveDay, 1);
});

test('a refused log-in (a wrong token: 202; a uuid moved away from: 212) is refused whole: no state, no bonus, and the day is still to be given', (t) => {
  const s = created();
  const moved = { ...s, account: { ...s.account, uuid: NEW_DEVICE, movedFrom: [UUID] } };
  const refused = (state: PlayerState, accessToken: string) => {
    const r = runNamed('loginPlayer', state, { uuid: UUID, accessToken }, rngFromSeed('x'), NOW, {
      master: m,
      others: [],
    });
    return r._tag === 'Left' ? r.left.code : 'ok';
  };
  t.is(refused(s, 'token-of-aki-00002'), 'PLAYER_NOT_FOUND');
  t.is(refused(moved, TOKEN_OF_AKI), 'PLAYER_MOVED');
  t.is(loginAt(t, s, NOW).bonus.given?.consecutiveDay, 1, 'the good log-in after it gives the day');
});

test('a stored player from before the bonus loads with it at its default, and its first log-in gives day 1', (t) => {
  const { loginBonus: _absent, ...old } = created();
  const decoded = decodeState(JSON.parse(JSON.stringify(old)));
  if (decoded._tag === 'Left') return t.fail('the old shape did not decode');
  t.deepEqual(decoded.right.loginBonus, { streak: 0, totalDays: 0, lastDay: null });
  t.is(loginAt(t, decoded.right, NOW).bonus.given?.consecutiveDay, 1);
});

test('replay: the same log-ins at the same instants make the same states and answers, and the logged request (the token as its hash) too', (t) => {
  // Days with gaps, two log-ins on some, one across a cycle's end and past milestones.
  const gaps = [0, 1, 1, 0, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 0, 1, 1, 1, 1];
  const nows = gaps.reduce<number[]>((acc, g, i) => [...acc, (acc[i - 1] ?? NOW) + g * DAY + HOUR], []);
  const a = loginsAt(t, created(), nows);
  const b = loginsAt(t, created(), nows);
  t.deepEqual(
    a.map((r) => JSON.stringify(r)),
    b.map((r) => JSON.stringify(r)),
  );
  const op = LOGIN_ENTRY;
  let s = created();
  for (const [i, now] of nows.entries()) {
    const logged = op.logged!({ uuid: UUID, accessToken: TOKEN_OF_AKI }, s, s);
    t.deepEqual(logged, { uuid: UUID, accessTokenHash: tokenHash(TOKEN_OF_AKI) });
    // As the replay runs an entry: the logged request, straight to execute (no token, no secrets issued).
    const r = execute(op, s, logged, rngFromSeed('other seed'), now, { master: m, others: [] });
    if (r._tag === 'Left') return t.fail(r.left.code);
    s = r.right.state;
    t.deepEqual(s, a[i]!.state, `log-in ${i}`);
  }
  t.true(
    a.some((r) => r.bonus.given?.presents.some((p) => p.track === 'total' && r.bonus.given?.totalDays === 10)),
    'the run crossed the tenth-day milestone',
  );
});
