// The daily log-in bonus over HTTP (issue 32): the log-in's answer and get_all's
// loginBonus, each checked against its codec by the server (checkAnswers); the day's
// rewards in the gift box once, whatever the retries, and whatever the number of log-ins
// racing on the same player across two services over one store (two processes): the
// version check lets one of them record the day.
import test from 'ava';
import { clientOf, newUuid, startHarness, type Harness } from '../_support/http.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { master, NOW } from '../_support/core.js';
import { parseTime } from '../../core/time.js';
import { LOGIN_BONUS_SOURCE } from '../../core/shared/loginBonus.js';

type Body = Record<string, unknown>;
const m = master();
const at = (local: string): number => parseTime(local, m.game.timezoneOffsetMinutes) ?? Number.NaN;

const signup = async (h: Harness) => {
  const uuid = newUuid();
  const su = await h.call('POST', '/api/player/signup', { uuid, platform: 1 });
  if (su.body['resultCode'] !== 0) throw new Error(JSON.stringify(su.body));
  return { uuid, accessToken: su.body['accessToken'] as string };
};
const login = (h: Harness, p: { uuid: string; accessToken: string }, headers: Record<string, string> = {}) =>
  h.call('POST', '/api/player/login', { uuid: p.uuid, accessToken: p.accessToken }, headers);
const bonusPresents = async (h: Harness, sessionId: string) =>
  (
    (await h.call('GET', '/api/player/present/get_all', undefined, { 'X-STAR-SESSION-ID': sessionId })).body[
      'presents'
    ] as Array<{ source: string; title: string; managedPresentId: number }>
  ).filter((p) => p.source === LOGIN_BONUS_SOURCE);

test("the log-in's answer names what it put in the gift box and where the tracks stand; get_all shows the tracks; the next game day gives day 2", async (t) => {
  const h = await startHarness({ now: NOW });
  t.teardown(() => h.close());
  const p = await signup(h);
  const first = await login(h, p);
  t.is(first.status, 200);
  const bonus = first.body['loginBonus'] as Body;
  const given = bonus['given'] as { consecutiveDay: number; totalDays: number; presents: Body[] };
  t.like(bonus, {
    boxFull: false,
    givenToday: true,
    nextDayAt: '2026-11-22T04:00:00',
    consecutive: { streak: 1, day: 1, cycleLength: 7, next: { day: 2 } },
    total: { days: 1, next: { days: 5 } },
  });
  t.is(given.consecutiveDay, 1);
  t.is(given.totalDays, 1);
  t.deepEqual(
    given.presents.map((x) => [x['track'], x['title']]),
    [
      ['consecutive', m.loginBonus.consecutive[0]!.rewards[0]!.title],
      ['total', m.loginBonus.total[0]!.rewards[0]!.title],
    ],
  );
  const sid = first.body['sessionId'] as string;
  const box = await bonusPresents(h, sid);
  t.deepEqual(
    box.map((x) => x.managedPresentId).sort(),
    given.presents.map((x) => x['managedPresentId'] as number).sort(),
    'the presents named are in the box',
  );
  const all = await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': sid });
  const { given: _g, boxFull: _b, ...tracks } = bonus;
  t.deepEqual(all.body['loginBonus'], tracks, "get_all's loginBonus is the answer's tracks");

  // Later the same game day: nothing; from 04:00 the next: day 2.
  h.clock.now = at('2026-11-22T03:59:59');
  const again = await login(h, p);
  t.like(again.body['loginBonus'], { given: null, givenToday: true });
  h.clock.now = at('2026-11-22T04:00:00');
  const next = await login(h, p);
  t.like(next.body['loginBonus'], { given: { consecutiveDay: 2, totalDays: 2 }, consecutive: { streak: 2 } });
  t.is((await bonusPresents(h, next.body['sessionId'] as string)).length, 3);
  // The typed client reads the same answer, typed.
  const typed = await clientOf(h).loginPlayer({ uuid: p.uuid, accessToken: p.accessToken });
  t.true(typed.ok && typed.value.loginBonus.given === null && typed.value.loginBonus.consecutive.day === 2);
});

test("a retried log-in (the same Idempotency-Key) is refused as ever and gives the day's bonus no second time", async (t) => {
  const h = await startHarness({ now: NOW });
  t.teardown(() => h.close());
  const p = await signup(h);
  const first = await login(h, p, { 'Idempotency-Key': 'li-1' });
  t.is((first.body['loginBonus'] as { given: unknown }).given !== null, true);
  const retry = await login(h, p, { 'Idempotency-Key': 'li-1' });
  t.is(retry.body['resultCode'], 112);
  t.is((await bonusPresents(h, first.body['sessionId'] as string)).length, 2);
});

/** A store whose reads take a while: two services' log-ins read the same version before either commits. */
class SlowReads extends MemoryStorage {
  override async load(playerId: number) {
    const s = await super.load(playerId);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return s;
  }
}

test('concurrent log-ins of one player the same game day, on two services over one store, give the day exactly once', async (t) => {
  const storage = new SlowReads();
  const a = await startHarness({ storage, now: NOW, tokenSeed: 'a' });
  const b = await startHarness({ storage, now: NOW, tokenSeed: 'b' });
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const p = await signup(a);
  let raced = 0;
  // Each round a new game day: 12 log-ins at once, half on each service.
  for (const [round, day] of ['2026-11-21T12:00:00', '2026-11-22T04:00:00', '2026-11-23T23:59:59'].entries()) {
    a.clock.now = b.clock.now = at(day);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(i % 2 === 0 ? a : b, p)));
    const ok = answers.filter((r) => r.body['resultCode'] === 0);
    const conflicts = answers.filter((r) => r.body['resultCode'] !== 0);
    t.true(ok.length >= 1, `round ${round}: a log-in succeeded`);
    // The entry tries once (attempts: 1): a log-in that loses the race is 317, which a client retries.
    t.true(
      conflicts.every((r) => r.body['resultCode'] === 317),
      JSON.stringify(conflicts.map((r) => r.body['resultCode'])),
    );
    raced += conflicts.length;
    const gave = ok.filter((r) => (r.body['loginBonus'] as { given: unknown }).given !== null);
    t.is(gave.length, 1, `round ${round}: one log-in gave the day`);
    t.true(
      ok.every((r) => (r.body['loginBonus'] as { givenToday: boolean }).givenToday),
      'every successful log-in sees the day given',
    );
    const box = await bonusPresents(a, ok[0]!.body['sessionId'] as string);
    // Day 1 gives the cycle's day 1 and the first milestone; days 2 and 3 their cycle day only.
    t.is(box.length, [2, 3, 4][round]!, `round ${round}: the box holds each day's rewards once`);
    t.deepEqual(
      box
        .map((x) => x.title)
        .filter((x) => x.startsWith('Log-in bonus: day'))
        .sort(),
      ['Log-in bonus: day 1', 'Log-in bonus: day 2', 'Log-in bonus: day 3'].slice(0, round + 1),
    );
  }
  t.true(raced > 0, 'the log-ins raced: some read a version another service committed first');
});
