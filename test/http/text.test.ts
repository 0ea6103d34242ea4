// Names and texts shown to people (issue 18): well-formed Unicode, no control,
// format (bidi overrides, zero-width) or surrogate code points, NFC-normalised,
// trimmed, not empty, within master data's limits; a clear 102 otherwise.
import test from 'ava';
import { ADMIN, newUuid, signupLogin, startHarness } from '../_support/http.js';
import { master } from '../_support/core.js';

const signup = (h: Awaited<ReturnType<typeof startHarness>>, name: string) =>
  h.call('POST', '/api/player/signup', `{"uuid":"${newUuid()}","platform":1,"name":${name}}`);

const BAD: ReadonlyArray<[string, string]> = [
  ['a right-to-left override', '"Ak\\u202ei"'],
  ['a C1 control', '"Ak\\u0085i"'],
  ['a zero-width space', '"Ak\\u200bi"'],
  ['a zero-width joiner', '"Ak\\u200di"'],
  ['a byte-order mark', '"\\ufeffAki"'],
  ['a lone surrogate', '"Ak\\ud800i"'],
  ['a private-use character', '"Ak\\ue000i"'],
  ['a noncharacter', '"Ak\\uffffi"'],
  ['a line separator', '"Ak\\u2028i"'],
  ['a tab', '"Ak\\ti"'],
];

test('sign-up names with control, format, surrogate or private-use code points are 102 naming the field, and no player is made', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (const [what, name] of BAD) {
    const r = await signup(h, name);
    t.is(r.status, 400, what);
    t.is(r.body['resultCode'], 102, what);
    t.regex(r.body['resultMessage'] as string, /name/, what);
  }
  t.deepEqual(await h.storage.playerIds(), []);
});

test('names are NFC-normalised and trimmed; the master-data limit counts characters (code points)', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const nameOf = async (name: string) => {
    const uuid = newUuid();
    const su = await h.call('POST', '/api/player/signup', `{"uuid":"${uuid}","platform":1,"name":${name}}`);
    if (su.body['resultCode'] !== 0) return su.body['resultCode'];
    const li = await h.call('POST', '/api/player/login', { uuid, accessToken: su.body['accessToken'] });
    return (
      (await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': li.body['sessionId'] as string }))
        .body['player'] as { name: string }
    ).name;
  };
  t.is(await nameOf('"Cafe\\u0301"'), 'Caf\u00e9', 'decomposed é is stored composed');
  t.is(await nameOf('"  Aki \\u3000"'), 'Aki', 'trimmed, ideographic space too');
  t.is(await nameOf('"   "'), 102, 'a name of only white space is refused, as name/set refuses it');
  t.is(
    await nameOf('""'),
    master().game.player.defaultName,
    'an empty sign-up name is the default name, as an absent one',
  );
  const max = master().game.player.nameMaxLength;
  t.is(
    await nameOf(JSON.stringify('\u{1F98A}'.repeat(max))),
    '\u{1F98A}'.repeat(max),
    `${max} emoji are ${max} characters`,
  );
  t.is(await nameOf(JSON.stringify('a'.repeat(max + 1))), 102);
});

test('party names: not empty, not only white space, no format characters; admin present texts likewise', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  for (const name of ['', '   ', '\u3000', 'A\u202eB', 'A\u200bB']) {
    const r = await c.post('/api/player/battle_party/set_name', { managedBattlePartyId: 1, name });
    t.is(r.body['resultCode'], 102, JSON.stringify(name));
  }
  const ok = await c.post('/api/player/battle_party/set_name', { managedBattlePartyId: 1, name: '  Team\u3000' });
  t.is(ok.body['resultCode'], 0);
  t.is(ok.body['name'], 'Team');
  for (const name of ['   ', 'A\u2066B'])
    t.is(
      (await c.post('/api/player/character/support/set_name', { supportPartyNo: 1, name })).body['resultCode'],
      102,
      JSON.stringify(name),
    );
  const admin = (title: string, message: string) =>
    h.call(
      'POST',
      '/admin/presents',
      { playerId: c.playerId, grant: { kind: 'gold', objectId: 0, amount: 1 }, title, message },
      { Authorization: `Bearer ${ADMIN}` },
    );
  t.is((await admin('Gift\u202e', '')).body['resultCode'], 102);
  t.is((await admin('   ', '')).body['resultCode'], 102);
  t.is((await admin('Gift', 'line 1\nline 2')).body['resultCode'], 0, 'a message may hold line feeds');
  t.is((await admin('Gift', 'a\u0007bell')).body['resultCode'], 102);
  const listed = (await c.get('/api/player/present/get_all')).body['presents'] as Array<{
    title: string;
    message: string;
  }>;
  t.true(listed.some((p) => p.title === 'Gift' && p.message === 'line 1\nline 2'));
});
