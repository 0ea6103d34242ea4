// The draw history (gacha/history, docs/rules/foundation.md, Gacha): the player's own draws,
// newest first, with what each paid and drew; filters by gacha and game-local time (from
// inclusive, to exclusive), pages; re-draws and the fix; gachas and characters no longer in
// the master data; what is kept (historyDays to the millisecond, at most historyMax records).
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth } from '../../_support/core.js';
import { DAY, HOUR, formatTime } from '../../../core/time.js';
import type { PlayerState, DrawRecord } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';
import type { Master } from '../../../core/master/index.js';

const local = (ms: number) => formatTime(ms, master().game.timezoneOffsetMinutes);

/** A player who drew: a ticket single on gacha 2, a gem single on gacha 2 an hour later, a ten-draw on gacha 3 a day later. */
const drawn = (t: Parameters<typeof receiveAll>[0]): PlayerState => {
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: 10_000, paidGem: 500 });
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'h1' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'h2', now: NOW + HOUR }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 3, drawType: 3 }, { seed: 'h3', now: NOW + DAY }).state;
  return s;
};

const m = master();
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const wealthy = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });
const SPOTLIGHT = 3; // pickups 1011, 1012, 1022; targets the same
const pickups = (gachaId: number) => m.gacha.get(gachaId)!.pickups.map((p) => p.characterId);
/** A copy of the master data without one gacha (as after it was taken out of gachas.json). */
const withoutGacha = (gachaId: number): Master => ({
  ...m,
  gacha: new Map([...m.gacha].filter(([id]) => id !== gachaId)),
  gachas: m.gachas.filter((g) => g.gachaId !== gachaId),
});
const record = (drawnAt: number): DrawRecord => ({
  gachaId: 2,
  drawnAt,
  drawType: 1,
  characterIds: [1013],
  payment: { ticket: 0, gem: 150, paidGem: 0 },
  granted: true,
});

/** Master data with some of game's numbers changed. */
const tuned = (game: { presents?: object; gacha?: object; move?: object }): Master => {
  const m = master();
  return {
    ...m,
    game: {
      ...m.game,
      presents: { ...m.game.presents, ...game.presents },
      gacha: { ...m.game.gacha, ...game.gacha },
      move: { ...m.game.move, ...game.move },
    },
  };
};

test("history lists the player's draws newest first, with what each paid and drew", (t) => {
  const s = drawn(t);
  const r = ok(t, 'getHistoryPlayerGacha', s, {}, { now: NOW + DAY });
  t.false(r.changed);
  const h = r.response;
  t.is(h.total, 3);
  t.is(h.historyDays, 90);
  t.deepEqual(
    h.draws.map((d) => [d.gachaId, d.kind, d.drawType, d.characters.length]),
    [
      [3, 'ten', 3, 10],
      [2, 'single', 1, 1],
      [2, 'ticket', 1, 1],
    ],
  );
  t.deepEqual(
    h.draws.map((d) => d.drawnAt),
    [local(NOW + DAY), local(NOW + HOUR), local(NOW)],
  );
  const [ten, single, ticket] = h.draws;
  t.deepEqual(ticket!.paid, { ticket: 1, ticketItemId: master().gacha.get(2)!.cost.ticketItemId, gem: 0, paidGem: 0 });
  t.deepEqual(single!.paid, { ticket: 0, ticketItemId: null, gem: master().gacha.get(2)!.cost.singleGem, paidGem: 0 });
  t.is(
    ten!.paid.gem + ten!.paid.paidGem,
    master().gacha.get(3)!.cost.firstTenGem ?? master().gacha.get(3)!.cost.tenGem,
  );
  // The characters are those the state recorded, named and with rarity and pickup.
  t.deepEqual(
    ten!.characters.map((c) => c.characterId),
    s.gachaHistory[2]!.characterIds,
  );
  for (const c of ten!.characters) {
    t.is(c.rarity, master().character.get(c.characterId)!.rarity);
    t.is(c.name, master().character.get(c.characterId)!.name);
    t.is(
      c.pickup,
      master()
        .gacha.get(3)!
        .pickups.some((p) => p.characterId === c.characterId),
    );
  }
  t.is(ten!.name, master().gacha.get(3)!.name);
  t.true(h.draws.every((d) => d.granted));
});

test('history filters by gacha and by game-local time (from inclusive, to exclusive)', (t) => {
  const s = drawn(t);
  const q = (req: Record<string, unknown>) => ok(t, 'getHistoryPlayerGacha', s, req, { now: NOW + DAY }).response;
  t.deepEqual(
    q({ gachaId: 2 }).draws.map((d) => d.kind),
    ['single', 'ticket'],
  );
  t.is(q({ gachaId: '3' }).total, 1);
  t.is(q({ gachaId: 6 }).total, 0);
  t.deepEqual(
    q({ from: local(NOW + HOUR) }).draws.map((d) => d.kind),
    ['ten', 'single'],
  );
  t.deepEqual(
    q({ to: local(NOW + HOUR) }).draws.map((d) => d.kind),
    ['ticket'],
  );
  t.deepEqual(
    q({ from: local(NOW), to: local(NOW + DAY), gachaId: 2 }).draws.map((d) => d.kind),
    ['single', 'ticket'],
  );
  t.is(q({ from: local(NOW + 2 * DAY) }).total, 0);
});

test('history pages: pageSize draws a page, page from 1, past the end an empty page', (t) => {
  const s = drawn(t);
  const q = (req: Record<string, unknown>) => ok(t, 'getHistoryPlayerGacha', s, req).response;
  const p1 = q({ pageSize: 2 });
  t.deepEqual([p1.page, p1.pageSize, p1.total, p1.draws.length], [1, 2, 3, 2]);
  const p2 = q({ pageSize: 2, page: 2 });
  t.deepEqual(
    p2.draws.map((d) => d.kind),
    ['ticket'],
  );
  t.deepEqual(q({ pageSize: 2, page: 3 }).draws, []);
  t.is(q({}).pageSize, 20);
});

test('history of a re-draw gacha: the draw, its re-draws (each granting its result, paid nothing) and the fix (granting nothing)', (t) => {
  let s = receiveAll(t, freshPlayer());
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: false }, { seed: 'r1' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r2' }).state;
  s = ok(t, 'fixPlayerGacha', s, { gachaId: 1 }).state;
  const h = ok(t, 'getHistoryPlayerGacha', s, { gachaId: 1 }).response;
  t.deepEqual(
    h.draws.map((d) => [d.kind, d.granted, d.drawType]),
    [
      ['fix', false, 0],
      ['reDraw', true, 3],
      ['ten', true, 3],
    ],
  );
  t.deepEqual(
    h.draws[0]!.characters.map((c) => c.characterId),
    h.draws[1]!.characters.map((c) => c.characterId),
    'the fix makes the last re-draw final',
  );
  for (const d of h.draws) t.deepEqual(d.paid, { ticket: 0, ticketItemId: null, gem: 0, paidGem: 0 });
});

test('history of a re-draw gacha the player moved on from: the record that made it final reads as its fix', (t) => {
  let s = receiveAll(t, freshPlayer());
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, stepCode: 4 }, { seed: 'r1' }).state;
  s = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 }).state;
  const h = ok(t, 'getHistoryPlayerGacha', s, { gachaId: 1 }).response;
  t.deepEqual(
    h.draws.map((d) => [d.kind, d.granted]),
    [
      ['fix', false],
      ['ten', true],
    ],
  );
  t.deepEqual(
    h.draws.map((d) => d.drawnAt),
    [local(NOW), local(NOW)],
  );
});

test("history: a character is a pickup only when it is one of that gacha's pickups", (t) => {
  const [pick] = pickups(SPOTLIGHT);
  const plainId = 1013;
  t.false(pickups(SPOTLIGHT).includes(plainId));
  const rec = (gachaId: number, drawnAt: number): DrawRecord => ({
    gachaId,
    drawnAt,
    drawType: 1,
    characterIds: [pick!, plainId],
    payment: { ticket: 0, gem: 150, paidGem: 0 },
    granted: true,
  });
  // The same characters drawn from the Spotlight gacha (with pickups) and the Standard gacha (none).
  const s: PlayerState = { ...freshPlayer(), gachaHistory: [rec(2, NOW - 1000), rec(SPOTLIGHT, NOW)] };
  const draws = ok(t, 'getHistoryPlayerGacha', s, {}).response.draws;
  t.deepEqual(
    draws.map((d) => [d.gachaId, d.characters.map((c) => [c.characterId, c.pickup])]),
    [
      [
        SPOTLIGHT,
        [
          [pick, true],
          [plainId, false],
        ],
      ],
      [
        2,
        [
          [pick, false],
          [plainId, false],
        ],
      ],
    ],
  );
});

test('history of a re-draw gacha no longer in the master data: empty name, no pickups, and still its draw, re-draws and fix', (t) => {
  let s = wealthy();
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r1' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r2' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: false }, { seed: 'r3' }).state;
  s = ok(t, 'fixPlayerGacha', s, { gachaId: 1 }).state;
  const now = ok(t, 'getHistoryPlayerGacha', s, {}).response.draws;
  const gone = ok(t, 'getHistoryPlayerGacha', s, {}, { m: withoutGacha(1) }).response.draws;
  t.deepEqual(
    gone.map((d) => [d.kind, d.granted]),
    [
      ['fix', false],
      ['reDraw', true],
      ['reDraw', true],
      ['ten', true],
    ],
  );
  t.deepEqual(
    gone.map((d) => d.kind),
    now.map((d) => d.kind),
    'the kinds do not depend on the gacha being in the master data: its fix says it was a re-draw gacha',
  );
  t.true(gone.every((d) => d.name === ''));
  t.true(gone.every((d) => d.characters.length === 10 && d.characters.every((c) => c.pickup === false)));
});

test('a re-draw history written before issue 33 (held draws, not granted, then the fix that granted them) reads as it did', (t) => {
  const rec = (drawType: number, granted: boolean, at: number): DrawRecord => ({
    gachaId: 1,
    drawnAt: NOW + at,
    drawType,
    characterIds: [1013],
    payment: { ticket: 0, gem: 0, paidGem: 0 },
    granted,
  });
  const s: PlayerState = { ...wealthy(), gachaHistory: [rec(1, false, 0), rec(1, false, 1000), rec(0, true, 2000)] };
  for (const mx of [m, withoutGacha(1)])
    t.deepEqual(
      ok(t, 'getHistoryPlayerGacha', s, {}, { m: mx }).response.draws.map((d) => [d.kind, d.granted]),
      [
        ['fix', true],
        ['reDraw', false],
        ['single', false],
      ],
    );
});

test('history of a character no longer in the master data: listed by id, with an empty name and rarity 0 (as a gacha no longer in it)', (t) => {
  const s = ok(t, 'drawPlayerGacha', wealthy(), { gachaId: 2, drawType: 1 }).state;
  const id = s.gachaHistory[0]!.characterIds[0]!;
  const m2: Master = { ...m, character: new Map([...m.character].filter(([k]) => k !== id)) };
  const c = ok(t, 'getHistoryPlayerGacha', s, {}, { m: m2 }).response.draws[0]!.characters[0]!;
  t.deepEqual(c, { characterId: id, name: '', rarity: 0, pickup: false });
});

// ---- refusals ----

test('history errors: a malformed time, from after to, a page size over 100 or a bad page are 102; nothing changes', (t) => {
  const s = drawn(t);
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { from: '2026-13-01T00:00:00' });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { to: 'yesterday' });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { from: local(NOW + DAY), to: local(NOW) });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { pageSize: 101 });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { page: 0 });
  fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { gachaId: -1 });
});

test('history: a malformed from or to is 102 naming that field; from after to is 102 naming from', (t) => {
  const s = freshPlayer();
  const bad = '2026-13-01T00:00:00'; // the shape of a game-local time, but no such month
  const from = fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { from: bad });
  t.is(fieldOf(from), 'from');
  t.regex(reasonOf(from), /time/);
  const to = fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { to: bad });
  t.is(fieldOf(to), 'to');
  t.regex(reasonOf(to), /time/);
  const after = fails(t, 'INVALID_PARAMETERS', 'getHistoryPlayerGacha', s, { from: local(NOW + 1000), to: local(NOW) });
  t.is(fieldOf(after), 'from');
  t.regex(reasonOf(after), /\bto\b/);
});

test('history: from equal to to is an empty window, not a refusal (from inclusive, to exclusive)', (t) => {
  const s = ok(t, 'drawPlayerGacha', wealthy(), { gachaId: 2, drawType: 1 }).state;
  const r = ok(t, 'getHistoryPlayerGacha', s, { from: local(NOW), to: local(NOW) }).response;
  t.is(r.total, 0);
  t.deepEqual(r.draws, []);
  t.is(ok(t, 'getHistoryPlayerGacha', s, { from: local(NOW), to: local(NOW + 1000) }).response.total, 1);
});

// ---- what is kept ----

test('history holds every draw of the last historyDays days: older ones are dropped at the next draw', (t) => {
  let s = withWealth(freshPlayer(), { gem: 10_000 });
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now: NOW + 89 * DAY }).state;
  t.is(ok(t, 'getHistoryPlayerGacha', s, {}, { now: NOW + 89 * DAY }).response.total, 2, 'kept 89 days later');
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now: NOW + 91 * DAY }).state;
  t.deepEqual(
    ok(t, 'getHistoryPlayerGacha', s, {}, { now: NOW + 91 * DAY }).response.draws.map((d) => d.drawnAt),
    [local(NOW + 91 * DAY), local(NOW + 89 * DAY)],
  );
});

test('the history keeps the configured days to the millisecond: older draws are dropped when the next is recorded', (t) => {
  const horizon = NOW - m.game.gacha.historyDays * DAY;
  const s = { ...wealthy(), gachaHistory: [record(horizon - 1), record(horizon), record(horizon + 1)] };
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.deepEqual(
    r.state.gachaHistory.map((h) => h.drawnAt),
    [horizon, horizon + 1, NOW],
  );
  const kept = ok(t, 'drawPlayerGacha', { ...wealthy(), gachaHistory: [record(horizon)] }, { gachaId: 2, drawType: 1 });
  t.deepEqual(
    kept.state.gachaHistory.map((h) => h.drawnAt),
    [horizon, NOW],
  );
});

test('the draw history keeps at most gacha.historyMax records, the newest', (t) => {
  const m = tuned({ gacha: { historyMax: 5 } });
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: m.game.currencyMax.gem });
  for (let i = 0; i < 8; i++)
    s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: `h${i}`, now: NOW + i * 1000, m }).state;
  t.is(s.gachaHistory.length, 5);
  t.deepEqual(
    s.gachaHistory.map((r) => r.drawnAt),
    [3, 4, 5, 6, 7].map((i) => NOW + i * 1000),
  );
});
