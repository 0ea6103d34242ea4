// What the console needs to name things and to catch a wrong present before it is
// sent: GET /admin/master/names (the game data's names of characters, weapons,
// items, facilities and room objects), and the present preview refusing a grant the
// send would refuse, with the send's code, nothing changed.
import test from 'ava';
import { ADMIN, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';

const auth = { Authorization: `Bearer ${ADMIN}` };
const get = (h: Harness, path: string) => h.call('GET', path, undefined, auth);
const post = (h: Harness, path: string, body: unknown) => h.call('POST', path, body, auth);

test('GET /admin/master/names gives every character, weapon, item, facility and room object its name, by id', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const r = await get(h, '/admin/master/names');
  t.is(r.status, 200);
  const m = master();
  type Named = Array<{ id: number; name: string }>;
  const body = r.body as unknown as Record<string, Named>;
  for (const [kind, rows] of [
    ['character', m.character],
    ['weapon', m.weapon],
    ['item', m.item],
    ['townFacility', m.facility],
    ['roomObject', m.roomObject],
  ] as const) {
    const list = body[kind] as Named;
    t.is(list.length, rows.size, kind);
    t.deepEqual(
      list.map((x) => x.id),
      [...rows.keys()].sort((a, b) => a - b),
      `${kind} by id`,
    );
    for (const { id, name } of list) t.is(name, (rows.get(id) as { name: string }).name);
  }
  t.deepEqual(
    body['item']?.find((x) => x.id === 9001),
    { id: 9001, name: 'Prism Shard' },
  );
  t.is(typeof r.body['version'], 'string');
  t.is((await h.call('GET', '/admin/master/names')).status, 401, 'behind the token like the rest');
});

test('the present preview refuses a grant the game data does not define with the code the send gives, nothing changed', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const before = (await get(h, `/admin/players/${a.playerId}`)).body['state'];
  const sendsBefore = (await get(h, '/admin/presents/sends')).body['sends'];
  const unknownItem = 999_999;
  t.false(master().item.has(unknownItem));
  for (const grant of [
    { kind: 'item', objectId: unknownItem },
    { kind: 'character', objectId: 1 },
    { kind: 'gold', objectId: 5 },
  ]) {
    const preview = await get(
      h,
      `/admin/presents/reach?playerIds=${a.playerId}&kind=${grant.kind}&objectId=${grant.objectId}`,
    );
    const send = await post(h, '/admin/presents', {
      playerId: a.playerId,
      grant: { ...grant, amount: 1 },
      title: 'Gift',
      message: '',
    });
    t.deepEqual([send.status, send.body['resultCode']], [404, 107], `the send refuses ${JSON.stringify(grant)}`);
    t.deepEqual(
      [preview.status, preview.body['resultCode'], preview.body['resultMessage']],
      [send.status, send.body['resultCode'], send.body['resultMessage']],
      `the preview refuses ${JSON.stringify(grant)} as the send does`,
    );
  }
  // The broadcast's preview too.
  t.is((await get(h, `/admin/presents/reach?all=true&kind=item&objectId=${unknownItem}`)).body['resultCode'], 107);
  t.deepEqual((await get(h, `/admin/players/${a.playerId}`)).body['state'], before, 'the player unchanged');
  t.deepEqual((await get(h, '/admin/presents/sends')).body['sends'], sendsBefore, 'no send kept');
});

test('the present preview takes a grant that exists, and refuses a half-given or malformed one as a bad parameter', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const ok = await get(h, `/admin/presents/reach?playerIds=${a.playerId}&kind=item&objectId=9001`);
  t.like(ok.body, { resultCode: 0, players: 1, reaches: 1 });
  t.like((await get(h, `/admin/presents/reach?playerIds=${a.playerId}&kind=gem&objectId=0`)).body, { reaches: 1 });
  t.like((await get(h, `/admin/presents/reach?playerIds=${a.playerId}`)).body, { reaches: 1 }, 'the grant is optional');
  for (const [query, message] of [
    ['kind=item', 'Invalid parameter objectId: give kind and objectId together.'],
    ['objectId=9001', 'Invalid parameter kind: give kind and objectId together.'],
    ['kind=sword&objectId=1', /Invalid parameter kind: must be one of character, item, weapon, gold, /],
    ['kind=item&objectId=-1', 'Invalid parameter objectId: must be a whole number, 0 or more.'],
    ['kind=item&objectId=1&objectId=2', 'Invalid parameter objectId: given more than once.'],
  ] as const) {
    const r = await get(h, `/admin/presents/reach?playerIds=${a.playerId}&${query}`);
    t.deepEqual([r.status, r.body['resultCode']], [400, 102], query);
    if (typeof message === 'string') t.is(r.body['resultMessage'], message, query);
    else t.regex(r.body['resultMessage'] as string, message, query);
  }
});
