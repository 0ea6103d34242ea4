// Every error path of the foundation's groups over HTTP: the result code, the HTTP
// status, and the player's whole state unchanged (get_all before = after).
import test from 'ava';
import { receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  code: number;
  status: number;
}

const CASES: Case[] = [
  {
    name: 'draw: unknown gacha',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 999, drawType: 1 },
    code: 107,
    status: 404,
  },
  {
    name: 'draw: out of period',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 5, drawType: 1 },
    code: 462,
    status: 403,
  },
  {
    name: 'draw: short of gems',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 2, drawType: 3 },
    code: 445,
    status: 409,
  },
  {
    name: 'draw: short of paid gems',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 2, drawType: 2 },
    code: 443,
    status: 409,
  },
  {
    name: 'draw: over the daily limit',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 4, drawType: 3 },
    code: 309,
    status: 409,
  },
  {
    name: 'draw: a tutorial step out of range',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 1, drawType: 3, stepCode: -5, reDraw: false },
    code: 102,
    status: 400,
  },
  {
    name: 'draw: re-draw of a normal gacha',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 2, drawType: 1, reDraw: 1 },
    code: 102,
    status: 400,
  },
  {
    name: 'draw: bad drawType',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 2, drawType: 0 },
    code: 102,
    status: 400,
  },
  {
    name: 'draw: missing gachaId',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { drawType: 1 },
    code: 103,
    status: 400,
  },
  {
    name: 'draw: fractional id',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 2.5, drawType: 1 },
    code: 102,
    status: 400,
  },
  {
    name: 'draw: huge id',
    method: 'POST',
    path: '/api/player/gacha/draw',
    body: { gachaId: 1e300, drawType: 1 },
    code: 102,
    status: 400,
  },
  { name: 'fix: nothing pending', method: 'POST', path: '/api/player/gacha/fix', body: {}, code: 315, status: 409 },
  {
    name: 'fix: unknown gacha',
    method: 'POST',
    path: '/api/player/gacha/fix',
    body: { gachaId: 77 },
    code: 107,
    status: 404,
  },
  {
    name: 'get_all: unknown gacha id',
    method: 'GET',
    path: '/api/player/gacha/get_all?gachaIds=2,77',
    code: 107,
    status: 404,
  },
  { name: 'box/get: no gachaId', method: 'GET', path: '/api/player/gacha/box/get', code: 103, status: 400 },
  {
    name: 'box/get: unknown gacha',
    method: 'GET',
    path: '/api/player/gacha/box/get?gachaId=77',
    code: 107,
    status: 404,
  },
  {
    name: 'point_to_character: not a target',
    method: 'POST',
    path: '/api/player/gacha/point_to_character',
    body: { gachaId: 3, characterId: 1013 },
    code: 102,
    status: 400,
  },
  {
    name: 'point_to_character: short of points',
    method: 'POST',
    path: '/api/player/gacha/point_to_character',
    body: { gachaId: 3, characterId: 1011 },
    code: 442,
    status: 409,
  },
  { name: 'present/get: no ids', method: 'GET', path: '/api/player/present/get?stepCode=0', code: 103, status: 400 },
  {
    name: 'present/get: a bad id',
    method: 'GET',
    path: '/api/player/present/get?managedPresentId=1,zz',
    code: 102,
    status: 400,
  },
  {
    name: 'present/get: too many ids',
    method: 'GET',
    path: `/api/player/present/get?managedPresentId=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
    code: 102,
    status: 400,
  },
  {
    name: 'present/get: a step going back',
    method: 'GET',
    path: '/api/player/present/get?managedPresentId=1&stepCode=1',
    code: 102,
    status: 400,
  },
  {
    name: 'tutorial: step going back',
    method: 'POST',
    path: '/api/player/tutorial/step/add',
    body: { stepCode: 1 },
    code: 102,
    status: 400,
  },
  {
    name: 'tutorial: step out of range',
    method: 'POST',
    path: '/api/player/tutorial/step/add',
    body: { stepCode: 100000 },
    code: 102,
    status: 400,
  },
  {
    name: 'tutorial: tip 0',
    method: 'POST',
    path: '/api/player/tutorial/tip/add',
    body: { tipId: 0 },
    code: 102,
    status: 400,
  },
  {
    name: 'tutorial: tip as text',
    method: 'POST',
    path: '/api/player/tutorial/tip/add',
    body: { tipId: 'three' },
    code: 102,
    status: 400,
  },
  {
    name: 'move/get: password too short',
    method: 'POST',
    path: '/api/player/move/get',
    body: { password: 'abc' },
    code: 102,
    status: 400,
  },
  { name: 'move/get: no password', method: 'POST', path: '/api/player/move/get', body: {}, code: 103, status: 400 },
  {
    name: 'move/set: unknown code',
    method: 'POST',
    path: '/api/player/move/set',
    body: {
      moveCode: 'NOSUCHCODE',
      movePassword: 'whatever',
      uuid: '12121212-3434-4565-8787-909090909090',
      platform: 1,
    },
    code: 210,
    status: 403,
  },
];

test('each error path answers its code and status and leaves the state unchanged', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  // A state with a received present, a tutorial step and a daily draw used.
  t.is((await c.post('/api/player/tutorial/step/add', { stepCode: 5 })).body['resultCode'], 0);
  t.is((await c.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).body['resultCode'], 0);
  // Spend the welcome gems: two pickup ten-draws of 1500.
  for (let i = 0; i < 2; i++)
    t.is((await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 })).body['resultCode'], 0);
  const snapshot = async () => {
    const r = await c.get('/api/player/get_all');
    const { serverTime: _s, ...rest } = r.body;
    return JSON.stringify(rest);
  };
  for (const k of CASES) {
    const before = await snapshot();
    const r = k.method === 'GET' ? await c.get(k.path) : await c.post(k.path, k.body);
    t.is(r.body['resultCode'], k.code, `${k.name}: ${JSON.stringify(r.body)}`);
    t.is(r.status, k.status, k.name);
    t.true(
      typeof r.body['resultMessage'] === 'string' && (r.body['resultMessage'] as string).length > 0,
      `${k.name}: a message`,
    );
    t.is(await snapshot(), before, `${k.name}: state unchanged`);
  }
});
