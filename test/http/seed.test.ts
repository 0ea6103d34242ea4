// The seed a request draws with: an HMAC-SHA256 of the player, the state's version and
// the attempt under the server's secret, whatever secrets the process met before.
import test from 'ava';
import { createHmac } from 'node:crypto';
import { deriveSeed } from '../../adapters/service/seed.js';

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

test('deriveSeed is the HMAC of its parts joined by colons, under each secret it is given in turn', (t) => {
  for (const secret of ['first-secret', 'second-secret', 'first-secret', 'ほし-secret'])
    t.is(deriveSeed(secret, 42, 7, 0), hmac(secret, '42:7:0'), secret);
  t.is(deriveSeed('s', 'signup', 9, 1), hmac('s', 'signup:9:1'));
  t.not(deriveSeed('s', 1, 2, 0), deriveSeed('t', 1, 2, 0));
});
