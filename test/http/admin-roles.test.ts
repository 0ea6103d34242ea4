// Every /admin endpoint against every role, generated from the admin table (so a new
// endpoint cannot be left unguarded): a role without the endpoint's permission is
// refused 403/113 with a message naming the roles that may, and nothing changes; a
// role with it is never refused for its role. docs/operators.md's table is this one.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ADMIN_OPERATIONS } from '../../adapters/http/admin-operations.js';
import { allows, ROLES } from '../../adapters/operators/roles.js';
import { roleTable } from '../../adapters/http/admin-roles-doc.js';
import { signupLogin, startHarness, type Harness } from '../_support/http.js';
import { adminAuth, makeOperator, operatorsOfEachRole } from '../_support/operators.js';

/** A path with its parameters filled with values that exist (or at least decode). */
const pathOf = (path: string, playerId: number) =>
  path
    .replace(':playerId', String(playerId))
    .replace(':gachaId', '2')
    .replace(':scheduleId', '1')
    .replace(':noticeId', '1')
    .replace(':tokenId', '1')
    .replace(':name', 'op-target');

/** What the operator can see of the game's and the operators' state: unchanged by a refusal. */
const snapshot = async (h: Harness, playerId: number) => {
  const get = async (p: string) => {
    const r = await h.call('GET', p, undefined, adminAuth);
    const { serverTime: _t, ...rest } = r.body;
    return rest;
  };
  return {
    player: await get(`/admin/players/${playerId}`),
    maintenance: await get('/admin/maintenance'),
    notices: await get('/admin/notices'),
    sends: await get('/admin/presents/sends'),
    operators: await get('/admin/operators'),
    master: await get('/admin/master'),
  };
};

test('each role against each endpoint: refused 403/113 without the permission, nothing changed; never refused for its role with it', async (t) => {
  t.timeout(120_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  const as = await operatorsOfEachRole(h);
  // The one operator disabled and enabled along the way: none of the callers.
  await makeOperator(h, 'op-target', 'viewer');
  let refusals = 0;
  for (const op of ADMIN_OPERATIONS) {
    if (op.needs === 'anyone') continue;
    for (const role of ROLES) {
      const before = await snapshot(h, player.playerId);
      const r = await h.call(
        op.method,
        pathOf(op.path, player.playerId),
        op.method === 'GET' ? undefined : {},
        as[role],
      );
      if (allows(role, op.needs)) {
        t.not(r.status, 403, `${role} may ${op.name}`);
        // Signing out ended the caller's session: sign in again for the endpoints after it.
        if (op.name === 'adminSignOut') as[role] = (await operatorsOfEachRole(h, role))[role];
        continue;
      }
      refusals++;
      t.is(r.status, 403, `${role} may not ${op.name}`);
      t.is(r.body['resultCode'], 113);
      t.regex(
        r.body['resultMessage'] as string,
        new RegExp(`Your role \\(${role}\\) may not do this: it needs the ${op.needs} permission`),
      );
      t.deepEqual(await snapshot(h, player.playerId), before, `${role} refused ${op.name}: nothing changed`);
    }
  }
  t.true(refusals > 30, `${refusals} refusals checked`);
});

test("docs/operators.md's role table is the admin table's", (t) => {
  const doc = readFileSync(new URL('../../docs/operators.md', import.meta.url), 'utf8');
  t.true(doc.includes(roleTable()), 'npm run docs writes it');
});
