// Fair by disclosure over HTTP: GET /api/player/gacha/history (the player's own
// draws, filtered and paged) and box/get's tenDraw, both checked strictly against
// their codecs by the harness (an undeclared field fails).
import test from 'ava';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import { formatTime, HOUR } from '../../core/time.js';
import { master } from '../_support/core.js';

test("GET /api/player/gacha/history lists the player's own draws with payment and characters, by gacha, time and page", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  await grant(h, a.playerId, 'gem', 0, 5000);
  await receiveAllHttp(a);
  const first = h.clock.now;
  const ticket = await a.client.drawPlayerGacha({ gachaId: 2, drawType: 1 });
  t.true(ticket.ok);
  h.clock.now += HOUR;
  const ten = await a.client.drawPlayerGacha({ gachaId: 3, drawType: 3 });
  if (!ten.ok) return t.fail(ten.resultMessage);

  const all = await a.client.getHistoryPlayerGacha();
  if (!all.ok) return t.fail(all.resultMessage);
  t.is(all.value.total, 2);
  t.deepEqual(
    all.value.draws.map((d) => [d.gachaId, d.kind]),
    [
      [3, 'ten'],
      [2, 'ticket'],
    ],
  );
  t.deepEqual(
    all.value.draws[0]!.characters.map((c) => c.characterId),
    ten.value.gachaResults.map((x) => x.characterId),
  );
  t.is(all.value.draws[1]!.paid.ticket, 1);

  // Query strings as a client sends them: the filters and the page.
  const tz = master().game.timezoneOffsetMinutes;
  const raw = await a.get(
    `/api/player/gacha/history?gachaId=2&from=${formatTime(first, tz)}&to=${formatTime(first + HOUR, tz)}&page=1&pageSize=5`,
  );
  t.is(raw.status, 200);
  t.is(raw.body['resultCode'], 0);
  t.deepEqual(
    (raw.body['draws'] as Array<{ kind: string }>).map((d) => d.kind),
    ['ticket'],
  );
  const paged = await a.get('/api/player/gacha/history?pageSize=1&page=2');
  t.deepEqual(
    (paged.body['draws'] as Array<{ gachaId: number }>).map((d) => d.gachaId),
    [2],
  );

  // Another player's history is their own: empty.
  const other = await b.client.getHistoryPlayerGacha({});
  t.true(other.ok && other.value.total === 0);

  const bad = await a.get('/api/player/gacha/history?from=2026-01-02T00:00:00&to=2026-01-01T00:00:00');
  t.is(bad.body['resultCode'], 102);
  t.is(bad.status, 400);
  const noSession = await h.call('GET', '/api/player/gacha/history');
  t.not(noSession.body['resultCode'], 0);
});

test('GET /api/player/gacha/box/get publishes tenDraw beside rarityRates', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const box = await a.client.getPlayerGachaBox({ gachaId: 3 });
  if (!box.ok) return t.fail(box.resultMessage);
  const ten = box.value.tenDraw;
  t.is(ten.draws, 10);
  t.true(ten.guaranteeProbability > 0.088 && ten.guaranteeProbability < 0.089);
  t.deepEqual(
    ten.rarityRates.map((r) => r.rarity),
    box.value.rarityRates.map((r) => r.rarity),
  );
  t.deepEqual(
    ten.pickups.map((p) => p.characterId),
    box.value.pickups.map((p) => p.characterId),
  );
  t.true(
    ten.rarityRates[0]!.probability > box.value.rarityRates[0]!.probability,
    '★5 is likelier per pull in a ten-draw',
  );
});
