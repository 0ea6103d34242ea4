// gacha/box/get (docs/rules/foundation.md, Gacha): the published probabilities and pickup
// shares, the point targets and whether the player owns them, and a gacha whose master data
// changed since loading shown as it is now. The published rates checked exactly:
// disclosure.test.ts.
import test from 'ava';
import { fails, freshPlayer, ok, receiveAll, withWealth, master } from '../../_support/core.js';
import { statOf } from '../../../core/operations/gacha.js';
import type { GachaIndexed, Master } from '../../../core/master/index.js';
import type { PlayerState } from '../../../core/state.js';

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

const m = master();
const wealthy = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });
const SPOTLIGHT = 3; // pickups 1011, 1012, 1022; targets the same

test('box/get publishes probabilities that sum to 1 and pickup shares of their rarity', (t) => {
  const r = ok(t, 'getPlayerGachaBox', rich(t), { gachaId: 3 });
  const chars = r.response.characters;
  const sum = chars.reduce((a, c) => a + c.probability, 0);
  t.true(Math.abs(sum - 1) < 1e-9);
  const r5 = r.response.rarityRates.find((x) => x.rarity === 5)!;
  t.is(r5.probability, 0.03);
  const pick5 = chars.find((c) => c.pickup && c.rarity === 5)!;
  t.true(Math.abs(pick5.probability - 0.015) < 1e-12);
  fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerGachaBox', rich(t), {});
});

test('box/get says which targets the player owns', (t) => {
  const targets = m.gacha.get(SPOTLIGHT)!.targets;
  const s = wealthy();
  const fresh = ok(t, 'getPlayerGachaBox', s, { gachaId: SPOTLIGHT }).response.targets;
  t.deepEqual(
    fresh.map((x) => [x.characterId, x.owned]),
    targets.map((x) => [x.characterId, false]),
  );
  const [first, second] = targets;
  const withPoints: PlayerState = { ...s, gachaStats: [{ ...statOf(s, SPOTLIGHT), points: second!.points }] };
  const owns = ok(t, 'pointToCharacterPlayerGacha', withPoints, {
    gachaId: SPOTLIGHT,
    characterId: second!.characterId,
  }).state;
  const after = ok(t, 'getPlayerGachaBox', owns, { gachaId: SPOTLIGHT }).response.targets;
  t.deepEqual(
    after.map((x) => [x.characterId, x.owned]),
    targets.map((x) => [x.characterId, x.characterId === second!.characterId]),
  );
  t.not(first!.characterId, second!.characterId);
});

test('box/get of a gacha whose master data changed since loading shows the change, not the tables built at load', (t) => {
  const g = m.gacha.get(SPOTLIGHT)!;
  const changed: GachaIndexed = { ...g, targets: g.targets.map((x) => ({ ...x, points: x.points + 25 })) };
  const m2: Master = { ...m, gacha: new Map([...m.gacha, [SPOTLIGHT, changed]]) };
  const loaded = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId: SPOTLIGHT }).response;
  const now = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId: SPOTLIGHT }, { m: m2 }).response;
  t.deepEqual(
    loaded.targets.map((x) => x.points),
    g.targets.map((x) => x.points),
  );
  t.deepEqual(
    now.targets.map((x) => x.points),
    changed.targets.map((x) => x.points),
  );
  // The rates are the same tables either way.
  t.deepEqual(now.rarityRates, loaded.rarityRates);
});
