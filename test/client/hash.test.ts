// The client's request hash is the formula the server checks (WIRE.md): the text
// hashed and its SHA-256, without a session (account operations) and with one.
import test from 'ava';
import { createHash } from 'node:crypto';
import { requestHash, requestHashText } from '../../client/index.js';

test('the hashed text: [sessionId + " "] + path with query + [" " + body] + " " + salt', (t) => {
  t.is(
    requestHashText({ pathWithQuery: '/api/player/signup', body: '{"uuid":"u"}', salt: 's' }),
    '/api/player/signup {"uuid":"u"} s',
  );
  t.is(
    requestHashText({ sessionId: 'abc', pathWithQuery: '/api/player/present/get?managedPresentId=1,2', salt: 's' }),
    'abc /api/player/present/get?managedPresentId=1,2 s',
  );
});

test('the hash is the lowercase hex SHA-256 of that text', async (t) => {
  const p = {
    sessionId: 'abc',
    pathWithQuery: '/api/player/gacha/draw',
    body: '{"gachaId":2,"drawType":3}',
    salt: 'test-salt',
  };
  t.is(await requestHash(p), createHash('sha256').update(requestHashText(p), 'utf8').digest('hex'));
});
