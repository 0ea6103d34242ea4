// Operators by name through the admin API: sign-in (a wrong name or password refused
// alike, as a wrong token is), sessions that end at sign-out, unused, or at their
// absolute end; personal tokens, revoked one by one; a disabled operator refused at
// once; ADMIN_TOKEN still the bootstrap administrator; and the audit trail naming
// each write's author, with its filters. On PostgreSQL a token revoked on one process
// is refused by another at its next request, with no restart.
import test from 'ava';
import { LiveOps } from '../../adapters/liveops/board.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { HOUR } from '../../core/time.js';
import { signupLogin, startHarness, type Harness } from '../_support/http.js';
import { adminAuth, makeOperator, PASSWORD, signIn } from '../_support/operators.js';
import { openStore, TEST_DATABASE_URL } from '../_support/pg.js';

const bearer = (token: unknown) => ({ Authorization: `Bearer ${String(token)}` });
const me = (h: Harness, auth: Record<string, string>) => h.call('GET', '/admin/me', undefined, auth);

test('an operator signs in by name and password; a wrong one of either is 401/203 alike and gives no session', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  await makeOperator(h, 'aki', 'support');
  const ok = await signIn(h, 'aki');
  t.like(ok.body, { resultCode: 0, name: 'aki', role: 'support' });
  t.like((await me(h, bearer(ok.body['token']))).body, {
    name: 'aki',
    role: 'support',
    via: 'session',
    permissions: ['read', 'support'],
  });
  const wrongPassword = await signIn(h, 'aki', 'not the password at all');
  const noSuchName = await signIn(h, 'nobody');
  for (const r of [wrongPassword, noSuchName]) {
    t.is(r.status, 401);
    t.is(r.body['resultCode'], 203);
    t.is(r.body['token'], undefined);
  }
  t.is(wrongPassword.body['resultMessage'], noSuchName.body['resultMessage'], 'the answer does not tell which');
  t.like((await me(h, adminAuth)).body, { name: 'admin', role: 'admin', via: 'bootstrap' });
});

test('a session ends at sign-out, after the idle time unused, and at its absolute end however used', async (t) => {
  const h = await startHarness({ cfg: { operatorIdleSeconds: 2 * 3600, operatorSessionSeconds: 4 * 3600 } });
  t.teardown(() => h.close());
  await makeOperator(h, 'aki', 'viewer');
  const a = bearer((await signIn(h, 'aki')).body['token']);
  t.is((await h.call('DELETE', '/admin/session', undefined, a)).body['resultCode'], 0);
  t.is((await me(h, a)).status, 401, 'signed out');

  const b = bearer((await signIn(h, 'aki')).body['token']);
  h.clock.now += 2 * HOUR;
  t.is((await me(h, b)).status, 401, 'unused for the idle time');

  const c = bearer((await signIn(h, 'aki')).body['token']);
  for (let i = 0; i < 3; i++) {
    h.clock.now += HOUR;
    t.is((await me(h, c)).body['resultCode'], 0, 'used within the idle time');
  }
  h.clock.now += HOUR;
  t.is((await me(h, c)).status, 401, 'its absolute end');
  t.is(
    (await h.call('DELETE', '/admin/session', undefined, adminAuth)).body['resultCode'],
    317,
    'ADMIN_TOKEN has no session',
  );
});

test('a personal token acts as its operator until revoked; a disabled operator is refused at once and cannot sign in', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  await makeOperator(h, 'aki', 'support');
  await makeOperator(h, 'ren', 'support');
  const session = bearer((await signIn(h, 'aki')).body['token']);
  const made = await h.call('POST', '/admin/tokens', { name: 'nightly report' }, session);
  t.like(made.body, { resultCode: 0, record: { operator: 'aki', name: 'nightly report', revokedAt: null } });
  const tk = bearer(made.body['token']);
  t.like((await me(h, tk)).body, { name: 'aki', via: 'token' });
  const id = (made.body['record'] as { id: number }).id;
  const ren = bearer((await signIn(h, 'ren')).body['token']);
  t.is(
    (await h.call('POST', `/admin/tokens/${id}/revoke`, {}, ren)).body['resultCode'],
    107,
    "another's token is not found",
  );
  t.is((await h.call('POST', `/admin/tokens/${id}/revoke`, {}, session)).body['resultCode'], 0);
  t.is((await me(h, tk)).status, 401, 'revoked: refused at its next request');
  t.is(
    (await h.call('POST', '/admin/tokens', { name: 'x' }, adminAuth)).body['resultCode'],
    317,
    'ADMIN_TOKEN owns none',
  );

  t.is((await h.call('POST', '/admin/operators/aki/disable', {}, adminAuth)).body['resultCode'], 0);
  t.is((await me(h, session)).status, 401, 'its session is refused at once');
  t.is((await signIn(h, 'aki')).status, 401, 'it cannot sign in');
  t.is((await h.call('POST', '/admin/operators/aki/enable', {}, adminAuth)).body['resultCode'], 0);
  t.is((await signIn(h, 'aki')).body['resultCode'], 0);
  const admin = bearer(
    (
      await (async () => {
        await makeOperator(h, 'boss', 'admin');
        return signIn(h, 'boss');
      })()
    ).body['token'],
  );
  t.is((await h.call('POST', '/admin/operators/boss/disable', {}, admin)).body['resultCode'], 317, 'not itself');
  t.is(
    (await h.call('POST', '/admin/operators', { name: 'aki', role: 'viewer', password: PASSWORD }, adminAuth)).body[
      'resultCode'
    ],
    317,
    'a name taken',
  );
  for (const bad of [
    { name: 'x', role: 'viewer', password: PASSWORD },
    { name: 'ok-name', role: 'god', password: PASSWORD },
    { name: 'ok-name', role: 'viewer', password: 'short' },
    { name: 'admin', role: 'viewer', password: PASSWORD },
  ]) {
    t.is((await h.call('POST', '/admin/operators', bad, adminAuth)).body['resultCode'], 102, JSON.stringify(bad));
  }
  t.deepEqual(
    ((await h.call('GET', '/admin/operators', undefined, adminAuth)).body['operators'] as Array<{ name: string }>).map(
      (o) => o.name,
    ),
    ['aki', 'ren', 'boss'],
    'nothing made by the refusals',
  );
});

test('the audit trail names who did each write, from where, what was asked and what it did; passwords and tokens never appear', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const p = await signupLogin(h);
  await makeOperator(h, 'aki', 'support');
  const aki = bearer((await signIn(h, 'aki')).body['token']);
  await h.call(
    'POST',
    '/admin/presents',
    { playerId: p.playerId, grant: { kind: 'gem', objectId: 0, amount: 5 }, title: 'Sorry', message: '' },
    aki,
  );
  await h.call('POST', `/admin/players/${p.playerId}/suspend`, { reason: 'test' }, aki);
  await h.call('POST', '/admin/maintenance', { until: '2099-01-01T00:00:00', message: 'm' }, aki);
  const sends = (await h.call('GET', '/admin/presents/sends', undefined, adminAuth)).body['sends'] as Array<{
    by: string;
  }>;
  t.is(sends[0]?.by, 'aki', 'the send names its author');

  const all = (await h.call('GET', '/admin/audit', undefined, adminAuth)).body['entries'] as Array<
    Record<string, unknown>
  >;
  t.deepEqual(
    all.map((e) => [e['action'], e['operator'], e['resultCode']]),
    [
      ['adminSetMaintenance', 'aki', 113],
      ['adminSuspend', 'aki', 0],
      ['adminDeliverPresents', 'aki', 0],
      ['adminSignIn', 'aki', 0],
      ['adminCreateOperator', 'admin', 0],
    ],
  );
  t.like(all[2], { via: 'session', ip: '127.0.0.1', playerIds: [p.playerId] });
  t.regex(all[2]?.['request'] as string, /"title":"Sorry"/);
  t.regex(all[2]?.['answer'] as string, /"sent":1/);
  const text = JSON.stringify(all);
  t.false(text.includes(PASSWORD), 'no password');
  t.regex(all[3]?.['answer'] as string, /"token":"\(secret\)"/);

  const byPlayer = (await h.call('GET', `/admin/audit?playerId=${p.playerId}`, undefined, adminAuth)).body[
    'entries'
  ] as unknown[];
  t.is(byPlayer.length, 2);
  const byAction = (await h.call('GET', '/admin/audit?action=adminSuspend&operator=aki', undefined, adminAuth)).body[
    'entries'
  ] as unknown[];
  t.is(byAction.length, 1);
  const none = (await h.call('GET', '/admin/audit?from=2099-01-01T00:00:00', undefined, adminAuth)).body[
    'entries'
  ] as unknown[];
  t.is(none.length, 0);
  t.is((await h.call('GET', '/admin/audit?limit=0', undefined, adminAuth)).body['resultCode'], 102);
  t.is((await h.call('GET', '/admin/audit', undefined, aki)).status, 403, 'the trail is an administrator’s');
});

test('on PostgreSQL a token revoked on one process is refused by another at its next request, with no restart', async (t) => {
  const { storage: one, schema } = await openStore(t);
  const two = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
  t.teardown(() => two.close());
  const a = await startHarness({ storage: one, liveOps: new LiveOps(one.liveOpsRecords()) });
  const b = await startHarness({ storage: two, liveOps: new LiveOps(two.liveOpsRecords()) });
  t.teardown(() => Promise.all([a.close(), b.close()]).then(() => undefined));
  await makeOperator(a, 'aki', 'viewer');
  const session = bearer((await signIn(b, 'aki')).body['token']);
  const made = await b.call('POST', '/admin/tokens', { name: 'leaked' }, session);
  const leaked = bearer(made.body['token']);
  t.is((await me(a, leaked)).body['resultCode'], 0, 'made on one, used on the other');
  t.is(
    (await a.call('POST', `/admin/tokens/${String((made.body['record'] as { id: number }).id)}/revoke`, {}, adminAuth))
      .body['resultCode'],
    0,
  );
  t.is((await me(b, leaked)).status, 401, 'refused on the other process at once');
  t.is((await me(a, leaked)).status, 401);
});
