// What box/get shows of a gacha that depends on master data alone (most of its
// answer): the published rates from the draw's own table, the pickups and targets
// named, the guarantee and a whole ten-draw's effective rates. Built once, when the
// master data is built (core/master/index.ts gachaTables), and shown as it is: its
// parts are marked never to change and the same for every player, so their JSON is
// kept (views/never-mutated.ts: common).
import type { Character, GameConfig } from '../master/base.js';
import { common } from '../views/never-mutated.js';
import { multiDrawRates, publish, rowsFrom, type DrawTable, type GachaIndexed } from './table.js';

export const buildBox = (
  m: { readonly character: ReadonlyMap<number, Character>; readonly game: GameConfig },
  g: GachaIndexed,
  table: DrawTable,
) => {
  const rates = publish(table);
  const named = (id: number) => ({
    characterId: id,
    name: m.character.get(id)?.name ?? '',
    rarity: m.character.get(id)?.rarity ?? 0,
  });
  const ten = multiDrawRates(table, m.game.gacha.tenDrawSize, g.guaranteeMinRarity);
  return {
    pickups: common(
      rates.characters.filter((c) => c.pickup).map((c) => ({ ...named(c.characterId), probability: c.probability })),
    ),
    targets: g.targets.map((x) => ({ ...named(x.characterId), points: x.points })),
    rarityRates: common(rates.rarities),
    characters: common(
      rates.characters.map((c) => ({ ...named(c.characterId), pickup: c.pickup, probability: c.probability })),
    ),
    guarantee:
      g.guaranteeMinRarity === null
        ? null
        : common({
            minRarity: g.guaranteeMinRarity,
            appliesTo: 'the last pull of a multi-draw with none at or above minRarity',
            ...publish(rowsFrom(table, g.guaranteeMinRarity)),
          }),
    tenDraw: common({
      draws: ten.size,
      rarityRates: ten.rarities,
      pickups: ten.characters
        .filter((c) => c.pickup)
        .map((c) => ({ ...named(c.characterId), probability: c.probability })),
      guaranteeProbability: ten.guaranteeProbability,
    }),
  };
};

export type GachaBox = ReturnType<typeof buildBox>;
