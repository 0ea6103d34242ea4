// Notices and the recall of a present send, through the operator API and what players see.
import test from 'ava';
import { ADMIN, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';
import { formatTime, HOUR } from '../../core/time.js';

const auth = { Authorization: `Bearer ${ADMIN}` };
const OFFSET = master().game.timezoneOffsetMinutes;
const at = (ms: number) => formatTime(ms, OFFSET);
const admin = (h: Harness, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  h.call(method, path, body, auth);
const shown = async (h: Harness) =>
  ((await h.call('GET', '/api/notice/get_all')).body['notices'] as Array<{ title: string }>).map((n) => n.title);

test('a notice shows from its start to its end, newest first, with no session and a cache header; a withdrawn one no longer shows', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const now = h.clock.now;
  const a = await admin(h, 'POST', '/admin/notices', {
    kind: 'maintenance',
    title: 'Maintenance tonight',
    body: 'From 02:00.',
  });
  t.is(a.body['resultCode'], 0, JSON.stringify(a.body));
  await admin(h, 'POST', '/admin/notices', {
    kind: 'banner',
    title: 'New banner tomorrow',
    body: '',
    from: at(now + HOUR),
    until: at(now + 3 * HOUR),
  });
  const r = await h.call('GET', '/api/notice/get_all');
  t.is(r.headers['cache-control'], 'public, max-age=60');
  t.like((r.body['notices'] as unknown[])[0], {
    kind: 'maintenance',
    title: 'Maintenance tonight',
    body: 'From 02:00.',
    startAt: at(now),
    endAt: null,
  });
  t.deepEqual(await shown(h), ['Maintenance tonight']);
  h.clock.now = now + HOUR;
  t.deepEqual(await shown(h), ['New banner tomorrow', 'Maintenance tonight']);
  const id = (a.body['notice'] as { id: number }).id;
  t.is((await admin(h, 'POST', `/admin/notices/${id}/withdraw`)).body['resultCode'], 0);
  t.deepEqual(await shown(h), ['New banner tomorrow']);
  h.clock.now = now + 3 * HOUR;
  t.deepEqual(await shown(h), []);
  const all = (await admin(h, 'GET', '/admin/notices')).body['notices'] as Array<{
    inForce: boolean;
    withdrawnAt: string | null;
  }>;
  t.is(all.length, 2, 'the operator still lists both');
  t.true(all.every((n) => !n.inForce));
  t.is((await admin(h, 'POST', `/admin/notices/${id}/withdraw`)).body['resultCode'], 107);
  t.is((await admin(h, 'POST', '/admin/notices/99/withdraw')).body['resultCode'], 107);
});

test('a notice is refused with an unknown kind, no title or an end before its start, and nothing is written', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (const bad of [
    { kind: 'spam', title: 't', body: '' },
    { kind: 'info', title: '', body: '' },
    { kind: 'info', title: 't', body: '', until: at(h.clock.now - HOUR) },
    { kind: 'info', title: 't', body: '', from: 'now' },
  ]) {
    const r = await admin(h, 'POST', '/admin/notices', bad);
    t.true([102, 103].includes(r.body['resultCode'] as number), JSON.stringify(bad));
  }
  t.deepEqual((await admin(h, 'GET', '/admin/notices')).body['notices'], []);
});

test('a recall takes back the unreceived presents of a send from every player it reached, and counts the received ones', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const players = [await signupLogin(h), await signupLogin(h), await signupLogin(h)];
  const gift = { grant: { kind: 'gem', objectId: 0, amount: 5000 }, title: 'Oops: 5,000 gems', message: '' };
  const sent = await admin(h, 'POST', '/admin/presents', { ...gift, all: true });
  t.like(sent.body, { resultCode: 0, sent: 3 });
  const sendId = sent.body['sendId'] as number;
  const other = await admin(h, 'POST', '/admin/presents', {
    ...gift,
    title: 'Kept',
    playerIds: [players[0]!.playerId],
  });
  const ofSend = async (p: (typeof players)[number], title: string) =>
    (
      (await p.get('/api/player/present/get_all')).body['presents'] as Array<{
        title: string;
        managedPresentId: number;
      }>
    ).filter((x) => x.title === title);
  // The first player receives it before the recall.
  const [first] = await ofSend(players[0]!, gift.title);
  await players[0]!.get(`/api/player/present/get?managedPresentId=${first!.managedPresentId}&stepCode=0`);

  const r = await admin(h, 'POST', '/admin/presents/recall', { sendId });
  t.like(r.body, { resultCode: 0, removed: 2, alreadyReceived: 1, players: 3 });
  for (const p of players) t.deepEqual(await ofSend(p, gift.title), []);
  t.is((await ofSend(players[0]!, 'Kept')).length, 1, 'another send is not touched');
  const again = await admin(h, 'POST', '/admin/presents/recall', { sendId });
  t.like(again.body, { resultCode: 0, removed: 0, alreadyReceived: 1 });
  const sends = (await admin(h, 'GET', '/admin/presents/sends')).body['sends'] as Array<Record<string, unknown>>;
  t.like(
    sends.find((s) => s['sendId'] === sendId),
    { sent: 3, removed: 2, alreadyReceived: 1, target: 'all' },
  );
  t.like(
    sends.find((s) => s['sendId'] === other.body['sendId']),
    { recalledAt: null, target: 'list' },
  );
  t.is((await admin(h, 'POST', '/admin/presents/recall', { sendId: 999 })).body['resultCode'], 107);
  t.is((await admin(h, 'POST', '/admin/presents/recall', { sendId: 0 })).body['resultCode'], 102);
});
