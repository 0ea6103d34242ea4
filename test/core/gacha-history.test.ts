// gacha/history (getHistoryPlayerGacha): the player's own draws, newest first, with
// what each paid and drew; filters by gacha and game-local time; pages.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth } from '../_support/core.js';
import { DAY, HOUR, formatTime } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';

const local = (ms: number) => formatTime(ms, master().game.timezoneOffsetMinutes);

/** A player who drew: a ticket single on gacha 2, a gem single on gacha 2 an hour later, a ten-draw on gacha 3 a day later. */
const drawn = (t: Parameters<typeof receiveAll>[0]): PlayerState => {
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: 10_000, paidGem: 500 });
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'h1' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'h2', now: NOW + HOUR }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 3, drawType: 3 }, { seed: 'h3', now: NOW + DAY }).state;
  return s;
};

test('history lists the player\'s draws newest first, with what each paid and drew', (t) => {
  const s = drawn(t);
  const r = ok(t, 'getHistoryPlayerGacha', s, {}, { now: NOW + DAY });
  t.false(r.changed);
  const h = r.response;
  t.is(h.total, 3);
  t.is(h.historyDays, 90);
  t.deepEqual(h.draws.map((d) => [d.gachaId, d.kind, d.drawType, d.characters.length]), [[3, 'ten', 3, 10], [2, 'single', 1, 1], [2, 'ticket', 1, 1]]);
  t.deepEqual(h.draws.map((d) => d.drawnAt), [local(NOW + DAY), local(NOW + HOUR), local(NOW)]);
  const [ten, single, ticket] = h.draws;
  t.deepEqual(ticket!.paid, { ticket: 1, ticketItemId: master().gacha.get(2)!.cost.ticketItemId, gem: 0, paidGem: 0 });
  t.deepEqual(single!.paid, { ticket: 0, ticketItemId: null, gem: master().gacha.get(2)!.cost.singleGem, paidGem: 0 });
  t.is(ten!.paid.gem + ten!.paid.paidGem, master().gacha.get(3)!.cost.firstTenGem ?? master().gacha.get(3)!.cost.tenGem);
  // The characters are those the state recorded, named and with rarity and pickup.
  t.deepEqual(ten!.characters.map((c) => c.characterId), s.gachaHistory[2]!.characterIds);
  for (const c of ten!.characters) {
    t.is(c.rarity, master().character.get(c.characterId)!.rarity);
    t.is(c.name, master().character.get(c.characterId)!.name);
    t.is(c.pickup, master().gacha.get(3)!.pickups.some((p) => p.characterId === c.characterId));
  }
  t.is(ten!.name, master().gacha.get(3)!.name);
  t.true(h.draws.every((d) => d.granted));
});

test('history filters by gacha and by game-local time (from inclusive, to exclusive)', (t) => {
  const s = drawn(t);
  const q = (req: Record<string, unknown>) => ok(t, 'getHistoryPlayerGacha', s, req, { now: NOW + DAY }).response;
  t.deepEqual(q({ gachaId: 2 }).draws.map((d) => d.kind), ['single', 'ticket']);
  t.is(q({ gachaId: '3' }).total, 1);
  t.is(q({ gachaId: 6 }).total, 0);
  t.deepEqual(q({ from: local(NOW + HOUR) }).draws.map((d) => d.kind), ['ten', 'single']);
  t.deepEqual(q({ to: local(NOW + HOUR) }).draws.map((d) => d.kind), ['ticket']);
  t.deepEqual(q({ from: local(NOW), to: local(NOW + DAY), gachaId: 2 }).draws.map((d) => d.kind), ['single', 'ticket']);
  t.is(q({ from: local(NOW + 2 * DAY) }).total, 0);
});

test('history pages: pageSize draws a page, page from 1, past the end an empty page', (t) => {
  const s = drawn(t);
  const q = (req: Record<string, unknown>) => ok(t, 'getHistoryPlayerGacha', s, req).response;
  const p1 = q({ pageSize: 2 });
  t.deepEqual([p1.page, p1.pageSize, p1.total, p1.draws.length], [1, 2, 3, 2]);
  const p2 = q({ pageSize: 2, page: 2 });
  t.deepEqual(p2.draws.map((d) => d.kind), ['ticket']);
  t.deepEqual(q({ pageSize: 2, page: 3 }).draws, []);
  t.is(q({}).pageSize, 20);
});

test('history of a re-draw gacha: the draw, its re-draws (not granted, paid nothing) and the fix', (t) => {
  let s = receiveAll(t, freshPlayer());
  // reDraw true opens the re-draw cycle (reDraw false would keep the draw at once).
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r1' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r2' }).state;
  s = ok(t, 'fixPlayerGacha', s, { gachaId: 1 }).state;
  const h = ok(t, 'getHistoryPlayerGacha', s, { gachaId: 1 }).response;
  t.deepEqual(h.draws.map((d) => [d.kind, d.granted, d.drawType]), [['fix', true, 0], ['reDraw', false, 3], ['ten', false, 3]]);
  t.deepEqual(h.draws[0]!.characters.map((c) => c.characterId), h.draws[1]!.characters.map((c) => c.characterId), 'the fix grants the last re-draw');
  for (const d of h.draws) t.deepEqual(d.paid, { ticket: 0, ticketItemId: null, gem: 0, paidGem: 0 });
});

test('history errors: a malformed time, from after to, a page size over 100 or a bad page are 102; nothing changes', (t) => {
  const s = drawn(t);
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { from: '2026-13-01T00:00:00' });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { to: 'yesterday' });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { from: local(NOW + DAY), to: local(NOW) });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { pageSize: 101 });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { page: 0 });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { gachaId: -1 });
});

test('history holds every draw of the last historyDays days: older ones are dropped at the next draw', (t) => {
  let s = withWealth(freshPlayer(), { gem: 10_000 });
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now: NOW + 89 * DAY }).state;
  t.is(ok(t, 'getHistoryPlayerGacha', s, {}, { now: NOW + 89 * DAY }).response.total, 2, 'kept 89 days later');
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now: NOW + 91 * DAY }).state;
  t.deepEqual(ok(t, 'getHistoryPlayerGacha', s, {}, { now: NOW + 91 * DAY }).response.draws.map((d) => d.drawnAt), [local(NOW + 91 * DAY), local(NOW + 89 * DAY)]);
});
