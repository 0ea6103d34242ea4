// The operator API's gachas: each gacha's period and prices (GET /admin/gachas) and
// one gacha's published rates, single pulls and whole ten-draws (what box/get shows,
// from the tables the draw uses), beside the rates its draws gave, counted from
// every player's kept draw history (GET /admin/gachas/:gachaId), each observed share
// with its 95% Wilson score interval, so a share of a few pulls is not read as a finding.
import * as t from 'io-ts';
import type { GachaIndexed, Master } from '../../core/master/index.js';
import type { DrawRecord } from '../../core/state.js';
import { Gacha } from '../../core/master/base.js';
import { boxOf, Guarantee, NamedRate, RarityRate, TenDraw } from '../../core/views/gacha.js';
import { openNow } from '../../core/gacha/stats.js';
import { tableOf } from '../../core/gacha/rates.js';
import { observedRates, type ObservedRates } from '../../core/gacha/observed.js';

const num = t.number;
const str = t.string;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const AdminGachaSummary = t.type(
  {
    gachaId: num,
    name: str,
    kind: Gacha.props.kind,
    /** The period as the master data gives it (the game's time zone); end null: open-ended. */
    start: str,
    end: nullable(str),
    /** Weekdays it is open (0 Sunday … 6 Saturday); null: every day. */
    weekdays: nullable(t.array(num)),
    /** Drawable now: in its period, on an open weekday. */
    openNow: t.boolean,
    /** The prices as the master data gives them (gems; null: not offered). */
    cost: Gacha.props.cost,
    /** Pulls in a ten-draw. */
    tenDrawSize: num,
    guaranteeMinRarity: nullable(num),
    /** Characters in its pool. */
    poolSize: num,
    reDraw: t.boolean,
  },
  'AdminGachaSummary',
);

/**
 * A share's 95% Wilson score interval (core/gacha/observed.ts), treating each pull as
 * an independent draw at the rate, as single pulls are; a ten-draw's guarantee ties
 * its last pull to the other nine, which the interval ignores (a small effect at ★4+).
 */
const interval = {
  /** The interval's lower end (0 at no pulls of it). */
  low: num,
  /** Its upper end (1 when every pull was it, or none was counted). */
  high: num,
};
const ObservedRarity = t.type(
  {
    rarity: num,
    /** Pulls of the rarity. */
    pulls: num,
    /** Their share of the pulls (0 when none were drawn). */
    share: num,
    ...interval,
  },
  'AdminObservedRarity',
);
const ObservedCharacter = t.type(
  {
    characterId: num,
    name: str,
    rarity: num,
    /** Pulls of the character. */
    pulls: num,
    /** Their share of the pulls. */
    share: num,
    ...interval,
  },
  'AdminObservedCharacter',
);
const AdminObservedRates = t.type(
  {
    /** Draws counted (a ten-draw is one) and the characters they drew. */
    draws: num,
    pulls: num,
    /** Each rarity's pulls and share of the pulls, with the share's 95% interval. */
    rarities: t.array(ObservedRarity),
    /** Each character drawn, most first, with its share's 95% interval. */
    characters: t.array(ObservedCharacter),
  },
  'AdminObservedRates',
);

export const AdminGachasResponse = t.type({ gachas: t.array(AdminGachaSummary) }, 'AdminGachasResponse');
export const AdminGachaResponse = t.type(
  {
    gacha: AdminGachaSummary,
    /** What box/get publishes: per pull, and a whole ten-draw's effective per-pull rates with its guarantee. */
    published: t.type(
      {
        rarityRates: t.array(RarityRate),
        characters: t.array(NamedRate),
        guarantee: nullable(Guarantee),
        tenDraw: TenDraw,
      },
      'AdminPublishedRates',
    ),
    /** What the draws gave, from the players' kept draw histories: single pulls (drawTypes 1, 2) and ten-draws (3) apart; fixes not counted. */
    observed: t.type({ players: num, single: AdminObservedRates, tenDraw: AdminObservedRates }, 'AdminObservedGacha'),
  },
  'AdminGachaResponse',
);

export const gachaSummary = (m: Master, g: GachaIndexed, now: number): t.TypeOf<typeof AdminGachaSummary> => ({
  gachaId: g.gachaId,
  name: g.name,
  kind: g.kind,
  start: g.period.start,
  end: g.period.end,
  weekdays: g.weekdays,
  openNow: openNow(m, g, now),
  cost: g.cost,
  tenDrawSize: m.game.gacha.tenDrawSize,
  guaranteeMinRarity: g.guaranteeMinRarity,
  poolSize: g.pool.length,
  reDraw: g.reDraw,
});

const named = (m: Master, o: ObservedRates) => ({
  draws: o.draws,
  pulls: o.pulls,
  rarities: [...o.rarities],
  characters: o.characters.map((c) => ({
    characterId: c.characterId,
    name: m.character.get(c.characterId)?.name ?? '',
    rarity: m.character.get(c.characterId)?.rarity ?? 0,
    pulls: c.pulls,
    share: c.share,
    low: c.low,
    high: c.high,
  })),
});

/** One gacha's answer: its summary, published rates and the rates observed in the draw records of `players` players. */
export const gachaRates = (
  m: Master,
  g: GachaIndexed,
  records: ReadonlyArray<DrawRecord>,
  players: number,
  now: number,
): t.TypeOf<typeof AdminGachaResponse> => {
  const box = boxOf(m, g);
  const observed = observedRates(m, g.gachaId, tableOf(m, g), [records]);
  return {
    gacha: gachaSummary(m, g, now),
    published: {
      rarityRates: box.rarityRates,
      characters: box.characters,
      guarantee: box.guarantee,
      tenDraw: box.tenDraw,
    },
    observed: { players, single: named(m, observed.single), tenDraw: named(m, observed.tenDraw) },
  };
};
