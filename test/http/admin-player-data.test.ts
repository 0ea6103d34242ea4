// A player's data through the operator API (docs/privacy.md): GET /admin/players/:id/export
// gives the stored state as a versioned document; POST /admin/players/import takes it back as
// a new player (a new id, friend code and access token, its uuid or the one given) or, with
// overwrite, over the same player (its account, friend code and relations kept, its sessions
// ended); a malformed document is 102 naming the field and changes nothing; each is logged
// (admin.action) without the player's data or the new token.
import test from 'ava';
import { ADMIN, grant, newUuid, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import type { Logger } from '../../adapters/http/log.js';

const admin = { Authorization: `Bearer ${ADMIN}` };
type Body = Record<string, unknown>;
type Doc = {
  format: string;
  version: number;
  exportedAt: string;
  playerId: number;
  masterVersion: string;
  state: Body;
};

const exported = async (h: Harness, id: number): Promise<Doc> => {
  const r = await h.call('GET', `/admin/players/${id}/export`, undefined, admin);
  if (r.body['resultCode'] !== 0) throw new Error(`export: ${JSON.stringify(r.body)}`);
  const { resultCode: _c, resultMessage: _m, serverTime: _s, serverVersion: _v, ...doc } = r.body;
  return doc as unknown as Doc;
};
const stored = async (h: Harness, id: number): Promise<Body> =>
  (await h.call('GET', `/admin/players/${id}`, undefined, admin)).body['state'] as Body;
const importing = (h: Harness, body: unknown) => h.call('POST', '/admin/players/import', body, admin);

const setup = async () => {
  const lines: Array<{ event: string; data: Record<string, unknown> }> = [];
  const log: Logger = (_level, event, data = {}) => lines.push({ event, data });
  const storage = new MemoryStorage();
  const h = await startHarness({ storage, log });
  const a = await signupLogin(h);
  await grant(h, a.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(a);
  if (!(await a.client.drawPlayerGacha({ gachaId: 2, drawType: 3 })).ok) throw new Error('draw failed');
  return { h, a, lines, storage };
};

test('the export is the stored state in a versioned document; an unknown id is 404, a malformed one 102', async (t) => {
  const { h, a, lines } = await setup();
  t.teardown(() => h.close());
  const doc = await exported(h, a.playerId);
  t.is(doc.format, 'hoshi-player');
  t.is(doc.version, 1);
  t.regex(doc.exportedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  t.is(doc.playerId, a.playerId);
  t.is(doc.masterVersion, h.service.masterAt(h.clock.now).version);
  t.deepEqual(doc.state, await stored(h, a.playerId));
  t.true((doc.state['gachaHistory'] as unknown[]).length > 0, 'its draw history with it');
  const missing = await h.call('GET', '/admin/players/9999/export', undefined, admin);
  t.is(missing.status, 404);
  t.is(missing.body['resultCode'], 202);
  t.is((await h.call('GET', '/admin/players/x/export', undefined, admin)).body['resultCode'], 102);
  t.is((await h.call('GET', `/admin/players/${a.playerId}/export`)).status, 401);
  const [audit] = lines
    .filter((l) => l.event === 'admin.action' && l.data['action'] === 'adminExportPlayer')
    .map((l) => l.data);
  t.like(audit, { action: 'adminExportPlayer', params: { playerId: String(a.playerId) }, resultCode: 0 });
  t.like(audit?.['answer'], { playerId: a.playerId });
  t.regex(String((audit?.['answer'] as Body)['sha256']), /^[0-9a-f]{16}$/);
  t.false(JSON.stringify(audit).includes(String(doc.state['myCode'])), 'the log holds no data of the player');
});

test('an import makes a new player: new id, friend code and token, bound to the uuid given; its game as exported', async (t) => {
  const { h, a, lines } = await setup();
  t.teardown(() => h.close());
  const doc = await exported(h, a.playerId);
  // The document's uuid is still A's: 201, nothing made.
  const taken = await importing(h, { document: doc });
  t.is(taken.body['resultCode'], 201);
  t.is(taken.status, 409);
  const uuid = newUuid();
  const r = await importing(h, { document: doc, uuid });
  t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
  const id = r.body['playerId'] as number;
  t.true(id > a.playerId);
  t.is(r.body['uuid'], uuid);
  t.is(r.body['overwritten'], false);
  const s = await stored(h, id);
  const was = doc.state;
  t.not(s['myCode'], was['myCode'], 'a friend code of its own');
  t.is(s['version'], 0);
  t.deepEqual(s['friends'], []);
  t.is(s['move'], null);
  for (const k of ['name', 'level', 'gem', 'gold', 'characters', 'gachaHistory', 'presents', 'items', 'nextManagedId'])
    t.deepEqual(s[k], was[k], k);
  const login = await h.call('POST', '/api/player/login', { uuid, accessToken: r.body['accessToken'], platform: 1 });
  t.is(login.body['resultCode'], 0, 'it logs in with the uuid and the new token');
  const action = lines.filter((l) => l.event === 'admin.action').at(-1)?.data;
  t.like(action, { action: 'adminImportPlayer', resultCode: 0 });
  const text = JSON.stringify(action);
  for (const secret of [String(r.body['accessToken']), uuid, String(was['name'])])
    t.false(text.includes(secret), `admin.action holds no ${secret}`);
  t.like(action?.['request'], { overwrite: false, uuidGiven: true, document: { playerId: a.playerId, version: 1 } });
  // The import is on the commit path: in the replay log like any entry.
  t.true((await h.storage.readLog({ players: [id] })).some((e) => e.kind === 'op' && e.op === 'adminImportPlayer'));
});

test("a deleted player's export imports again under its own uuid (free since its deletion)", async (t) => {
  const { h, a } = await setup();
  t.teardown(() => h.close());
  const doc = await exported(h, a.playerId);
  t.is((await a.post('/api/player/delete', { accessToken: a.accessToken })).body['resultCode'], 0);
  t.is((await h.call('GET', `/admin/players/${a.playerId}/export`, undefined, admin)).status, 404);
  const r = await importing(h, { document: doc });
  t.is(r.body['resultCode'], 0);
  t.is(r.body['uuid'], a.uuid);
  const login = await h.call('POST', '/api/player/login', {
    uuid: a.uuid,
    accessToken: r.body['accessToken'],
    platform: 1,
  });
  t.is(login.body['playerId'], r.body['playerId']);
  const over = await importing(h, { document: doc, overwrite: true });
  t.is(over.status, 404, 'a deleted player is not written over');
});

test('overwrite: the document over the same player; its account, friend code and relations stay; its sessions end', async (t) => {
  const { h, a } = await setup();
  t.teardown(() => h.close());
  const b = await signupLogin(h);
  t.is((await a.post('/api/player/friend/propose', { playerId: b.playerId })).body['resultCode'], 0);
  const doc = await exported(h, a.playerId);
  // After the export: more gems, a move code, B accepts.
  await grant(h, a.playerId, 'gem', 0, 500);
  await receiveAllHttp(a);
  t.is((await a.post('/api/player/move/get', { password: 'secret-1' })).body['resultCode'], 0);
  t.is((await b.post('/api/player/friend/accept', { playerId: a.playerId })).body['resultCode'], 0);
  const now = await stored(h, a.playerId);
  const r = await importing(h, { document: doc, overwrite: true });
  t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
  t.like(r.body, { playerId: a.playerId, version: (now['version'] as number) + 1, overwritten: true });
  const s = await stored(h, a.playerId);
  t.is(s['gem'], doc.state['gem'], 'the game is the document’s');
  t.deepEqual(s['presents'], doc.state['presents']);
  t.deepEqual(s['myCode'], now['myCode']);
  t.deepEqual(s['move'], now['move']);
  t.deepEqual(s['friends'], now['friends'], 'relations as they are now (each is also the other’s)');
  t.like(s['account'], { uuid: a.uuid, tokenHash: (now['account'] as Body)['tokenHash'] });
  t.is((s['account'] as Body)['sessionEpoch'], ((now['account'] as Body)['sessionEpoch'] as number) + 1);
  t.is((await a.get('/api/player/get_all')).body['resultCode'], 203, 'its session ended');
  const login = await h.call('POST', '/api/player/login', { uuid: a.uuid, accessToken: a.accessToken, platform: 1 });
  t.is(login.body['resultCode'], 0, 'it logs in as before');
  const none = await importing(h, {
    document: { ...doc, playerId: 999, state: { ...doc.state, playerId: 999 } },
    overwrite: true,
  });
  t.is(none.status, 404);
  t.regex(none.body['resultMessage'] as string, /No such player: 999/);
});

test('a malformed document is 102 naming the field from the document, and changes nothing', async (t) => {
  const { h, a, storage } = await setup();
  t.teardown(() => h.close());
  const doc = await exported(h, a.playerId);
  const state = doc.state;
  const characters = state['characters'] as Body[];
  const cases: Array<[string, unknown, number, string]> = [
    ['no document', {}, 103, 'document'],
    ['a list', { document: [] }, 102, 'document.(document)'],
    ['another format', { document: { ...doc, format: 'other' } }, 102, 'document.format'],
    ['a newer version', { document: { ...doc, version: 2 } }, 102, 'document.version'],
    ['an older version no migration reads', { document: { ...doc, version: 0 } }, 102, 'document.version'],
    ['no state', { document: { ...doc, state: undefined } }, 102, 'document.state'],
    [
      'a level that is not a number',
      { document: { ...doc, state: { ...state, characters: [{ ...characters[0], level: 'x' }] } } },
      102,
      'document.state.characters.0.level',
    ],
    [
      'an id not the document’s',
      { document: { ...doc, state: { ...state, playerId: 77 } } },
      102,
      'document.state.playerId',
    ],
    [
      'a tombstone',
      { document: { ...doc, state: { ...state, account: { ...(state['account'] as Body), deletedAt: 1 } } } },
      102,
      'document.state.account.deletedAt',
    ],
    ['a uuid that is not one', { document: doc, uuid: 'nope' }, 102, 'uuid'],
    ['a uuid with overwrite', { document: doc, uuid: newUuid(), overwrite: true }, 102, 'uuid'],
  ];
  const before = JSON.stringify([
    await storage.playerIds(),
    await stored(h, a.playerId),
    (await storage.readLog()).length,
  ]);
  for (const [what, body, code, field] of cases) {
    const r = await importing(h, body);
    t.is(r.body['resultCode'], code, what);
    t.true((r.body['resultMessage'] as string).includes(field), `${what}: ${String(r.body['resultMessage'])}`);
  }
  t.is(
    JSON.stringify([await storage.playerIds(), await stored(h, a.playerId), (await storage.readLog()).length]),
    before,
    'nothing changed',
  );
});
