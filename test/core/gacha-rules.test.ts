// Gacha rules at their edges (docs/rules/foundation.md "Gacha"): what get_all's and
// history's refusals name, history's time window at equal bounds, a gacha or character no
// longer in the master data, pickups in the history, box/get's targets owned or not, and
// box/get built afresh for a gacha whose master data changed since it was loaded.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import { statOf } from '../../core/operations/gacha.js';
import { formatTime } from '../../core/time.js';
import type { GameError } from '../../core/errors.js';
import type { GachaIndexed, Master } from '../../core/master/index.js';
import type { DrawRecord, PlayerState } from '../../core/state.js';

const m = master();
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const local = (ms: number) => formatTime(ms, m.game.timezoneOffsetMinutes);
const rich = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });
const SPOTLIGHT = 3; // pickups 1011, 1012, 1022; targets the same
const pickups = (gachaId: number) => m.gacha.get(gachaId)!.pickups.map((p) => p.characterId);
/** A copy of the master data without one gacha (as after it was taken out of gachas.json). */
const withoutGacha = (gachaId: number): Master => ({
  ...m, gacha: new Map([...m.gacha].filter(([id]) => id !== gachaId)), gachas: m.gachas.filter((g) => g.gachaId !== gachaId),
});

test('get_all naming an unknown gacha is 107 naming the gacha and that id', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'getAllPlayerGacha', freshPlayer(), { gachaIds: '2,77' }), { entity: 'gacha', id: 77 });
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
  const s = ok(t, 'drawPlayerGacha', rich(), { gachaId: 2, drawType: 1 }).state;
  const r = ok(t, 'getHistoryPlayerGacha', s, { from: local(NOW), to: local(NOW) }).response;
  t.is(r.total, 0);
  t.deepEqual(r.draws, []);
  t.is(ok(t, 'getHistoryPlayerGacha', s, { from: local(NOW), to: local(NOW + 1000) }).response.total, 1);
});

test('history: a character is a pickup only when it is one of that gacha\'s pickups', (t) => {
  const [pick] = pickups(SPOTLIGHT);
  const plainId = 1013;
  t.false(pickups(SPOTLIGHT).includes(plainId));
  const rec = (gachaId: number, drawnAt: number): DrawRecord => ({ gachaId, drawnAt, drawType: 1, characterIds: [pick!, plainId], payment: { ticket: 0, gem: 150, paidGem: 0 }, granted: true });
  // The same characters drawn from the Spotlight gacha (with pickups) and the Standard gacha (none).
  const s: PlayerState = { ...freshPlayer(), gachaHistory: [rec(2, NOW - 1000), rec(SPOTLIGHT, NOW)] };
  const draws = ok(t, 'getHistoryPlayerGacha', s, {}).response.draws;
  t.deepEqual(draws.map((d) => [d.gachaId, d.characters.map((c) => [c.characterId, c.pickup])]), [
    [SPOTLIGHT, [[pick, true], [plainId, false]]],
    [2, [[pick, false], [plainId, false]]],
  ]);
});

test('history of a re-draw gacha no longer in the master data: empty name, no pickups, and still its draw, re-draws and fix', (t) => {
  let s = rich();
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r1' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r2' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 'r3' }).state;
  s = ok(t, 'fixPlayerGacha', s, { gachaId: 1 }).state;
  const now = ok(t, 'getHistoryPlayerGacha', s, {}).response.draws;
  const gone = ok(t, 'getHistoryPlayerGacha', s, {}, { m: withoutGacha(1) }).response.draws;
  t.deepEqual(gone.map((d) => [d.kind, d.granted]), [['fix', true], ['reDraw', false], ['reDraw', false], ['ten', false]]);
  t.deepEqual(gone.map((d) => d.kind), now.map((d) => d.kind), 'the kinds do not depend on the gacha being in the master data');
  t.true(gone.every((d) => d.name === ''));
  t.true(gone.every((d) => d.characters.length === 10 && d.characters.every((c) => c.pickup === false)));
});

test('history of a character no longer in the master data: listed by id, with an empty name and rarity 0 (as a gacha no longer in it)', (t) => {
  const s = ok(t, 'drawPlayerGacha', rich(), { gachaId: 2, drawType: 1 }).state;
  const id = s.gachaHistory[0]!.characterIds[0]!;
  const m2: Master = { ...m, character: new Map([...m.character].filter(([k]) => k !== id)) };
  const c = ok(t, 'getHistoryPlayerGacha', s, {}, { m: m2 }).response.draws[0]!.characters[0]!;
  t.deepEqual(c, { characterId: id, name: '', rarity: 0, pickup: false });
});

test('box/get says which targets the player owns', (t) => {
  const targets = m.gacha.get(SPOTLIGHT)!.targets;
  const s = rich();
  const fresh = ok(t, 'getPlayerGachaBox', s, { gachaId: SPOTLIGHT }).response.targets;
  t.deepEqual(fresh.map((x) => [x.characterId, x.owned]), targets.map((x) => [x.characterId, false]));
  const [first, second] = targets;
  const withPoints: PlayerState = { ...s, gachaStats: [{ ...statOf(s, SPOTLIGHT), points: second!.points }] };
  const owns = ok(t, 'pointToCharacterPlayerGacha', withPoints, { gachaId: SPOTLIGHT, characterId: second!.characterId }).state;
  const after = ok(t, 'getPlayerGachaBox', owns, { gachaId: SPOTLIGHT }).response.targets;
  t.deepEqual(after.map((x) => [x.characterId, x.owned]), targets.map((x) => [x.characterId, x.characterId === second!.characterId]));
  t.not(first!.characterId, second!.characterId);
});

test('box/get of a gacha whose master data changed since loading shows the change, not the tables built at load', (t) => {
  const g = m.gacha.get(SPOTLIGHT)!;
  const changed: GachaIndexed = { ...g, targets: g.targets.map((x) => ({ ...x, points: x.points + 25 })) };
  const m2: Master = { ...m, gacha: new Map([...m.gacha, [SPOTLIGHT, changed]]) };
  const loaded = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId: SPOTLIGHT }).response;
  const now = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId: SPOTLIGHT }, { m: m2 }).response;
  t.deepEqual(loaded.targets.map((x) => x.points), g.targets.map((x) => x.points));
  t.deepEqual(now.targets.map((x) => x.points), changed.targets.map((x) => x.points));
  // The rates are the same tables either way.
  t.deepEqual(now.rarityRates, loaded.rarityRates);
});
