// Exchanging gacha points for a target character (point_to_character, docs/rules/foundation.md,
// Gacha): the target's price in points, every point needed, new or owned said, the points left
// answered; a character that is not a target is refused.
import test from 'ava';
import { fails, freshPlayer, ok, receiveAll, withWealth } from '../../_support/core.js';
import { statOf } from '../../../core/operations/gacha.js';
import type { PlayerState, GachaStat } from '../../../core/state.js';

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });
const wealthy = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });

/** A state whose stat for a gacha is the given one (the other stats kept). */
const withStat = (s: PlayerState, st: Partial<GachaStat> & { gachaId: number }): PlayerState => ({
  ...s,
  gachaStats: [...s.gachaStats.filter((x) => x.gachaId !== st.gachaId), { ...statOf(s, st.gachaId), ...st }].sort(
    (a, b) => a.gachaId - b.gachaId,
  ),
});

test('point_to_character spends the target price and grants the character; short is 442', (t) => {
  const s = rich(t);
  fails(t, 'GACHA_POINT_IS_SHORT', 'pointToCharacterPlayerGacha', s, { gachaId: 3, characterId: 1012 });
  let cur = s;
  for (let i = 0; i < 5; i++)
    cur = ok(
      t,
      'drawPlayerGacha',
      withWealth(cur, { gem: 100_000 }),
      { gachaId: 3, drawType: 3 },
      { seed: `p${i}` },
    ).state;
  t.is(statOf(cur, 3).points, 50);
  const had = cur.characters.some((c) => c.characterId === 1012);
  const r = ok(t, 'pointToCharacterPlayerGacha', cur, { gachaId: 3, characterId: 1012 });
  t.is(statOf(r.state, 3).points, 0);
  t.true(r.state.characters.some((c) => c.characterId === 1012));
  t.is(r.response.isNew, !had);
  fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', cur, { gachaId: 3, characterId: 1013 });
  fails(t, 'NOT_FOUND', 'pointToCharacterPlayerGacha', cur, { gachaId: 99, characterId: 1012 });
});

test('a point exchange: a character not a target is 102; new or owned is said; the points left are answered', (t) => {
  const base = wealthy();
  const st = { ...statOf(base, 3), points: 120 };
  const s = { ...base, gachaStats: [st] };
  t.like(fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', s, { gachaId: 3, characterId: 1013 }), {
    field: 'characterId',
  });
  const a = ok(t, 'pointToCharacterPlayerGacha', s, { gachaId: 3, characterId: 1012 });
  t.like(a.response, { gachaId: 3, characterId: 1012, points: 70, isNew: true });
  const b = ok(t, 'pointToCharacterPlayerGacha', a.state, { gachaId: 3, characterId: 1012 });
  t.like(b.response, { points: 20, isNew: false });
  t.is(b.state.characters.filter((c) => c.characterId === 1012).length, 1);
  t.like(fails(t, 'GACHA_POINT_IS_SHORT', 'pointToCharacterPlayerGacha', b.state, { gachaId: 3, characterId: 1022 }), {
    need: 50,
    have: 20,
  });
});

test('a point exchange one point short is 442 and changes nothing; at the price it spends every point', (t) => {
  const s = rich(t);
  // Gacha 3's target 1012 costs 50 points.
  const short = withStat(s, { gachaId: 3, points: 49 });
  const e = fails(t, 'GACHA_POINT_IS_SHORT', 'pointToCharacterPlayerGacha', short, { gachaId: 3, characterId: 1012 });
  t.like(e, { need: 50, have: 49 });
  const r = ok(t, 'pointToCharacterPlayerGacha', withStat(s, { gachaId: 3, points: 50 }), {
    gachaId: 3,
    characterId: 1012,
  });
  t.is(statOf(r.state, 3).points, 0);
  t.is(
    r.state.characters.filter((c) => c.characterId === 1012).length,
    s.characters.filter((c) => c.characterId === 1012).length + 1,
  );
});
