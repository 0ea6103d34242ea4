// Master data of the social and adventure group: friend and guest rules, quests
// with their drop tables, achievements and their conditions, box-event chests and
// craft offers. Every number of these operations lives here, never in code.
import * as t from 'io-ts';
import type { baseFiles } from './base.js';
import type { progressionFiles } from './progression.js';
import type { townFiles } from './town.js';
import { Grant, ItemAmount, Name, NonNegInt, Period, PosInt, type FilesOf, type MasterProblem } from './common.js';
import { parseTime } from '../time.js';

export const SocialConfig = t.type({
  friend: t.type({
    /** Pending requests a player may have sent, and received, each (310 past it). */
    requestLimit: PosInt,
    /** Guests added to the friend list on the quest screen. */
    guestCount: NonNegInt,
  }),
  battleParty: t.type({ nameMaxLength: PosInt }),
  quest: t.type({
    /** The longest questData string kept (102 past it). */
    questDataMaxLength: PosInt,
    /** Clear ranks run 1 … maxClearRank; higher is better. */
    maxClearRank: PosInt,
    /** The largest skill or friend use count a completion may report. */
    useCountMax: PosInt,
    /** The most skill-use entries a completion may report. */
    skillEntriesMax: PosInt,
  }),
  chest: t.type({ maxDrawCount: PosInt }),
  offer: t.type({ maxActive: PosInt }),
});
export type SocialConfig = t.TypeOf<typeof SocialConfig>;

/** One entry of a drop table: a weighted grant, or null for "nothing this roll". */
export const DropEntry = t.type({ weight: PosInt, grant: t.union([Grant, t.null]) });
export type DropEntry = t.TypeOf<typeof DropEntry>;

export const Quest = t.type({
  questId: PosInt,
  name: Name,
  /** The request's `type`: 1 story, 2 event. */
  type: PosInt,
  period: Period,
  stamina: NonNegInt,
  waves: PosInt,
  retry: t.type({ gem: PosInt, max: NonNegInt }),
  /** Coins and player exp per clear; characterExp goes to each character of the party. */
  rewards: t.type({ gold: NonNegInt, playerExp: NonNegInt, characterExp: NonNegInt }),
  /** Each clear rolls the table `rolls` times. */
  drops: t.type({ rolls: NonNegInt, table: t.array(DropEntry) }),
  firstClear: t.array(Grant),
  /** A story scene without a battle: cleared by viewing its scene (adv/add, advScenes.json), never ordered. */
  advOnly: t.boolean,
});
export type Quest = t.TypeOf<typeof Quest>;

/** A condition over the player's state or counters; the engine reads only these. */
export const Condition = t.union([
  t.type({ kind: t.literal('counter'), counter: Name, atLeast: PosInt }),
  t.type({ kind: t.literal('charactersOwned'), atLeast: PosInt }),
  t.type({ kind: t.literal('friends'), atLeast: PosInt }),
  t.type({ kind: t.literal('playerLevel'), atLeast: PosInt }),
  t.type({ kind: t.literal('facilityLevel'), atLeast: PosInt }),
  t.type({ kind: t.literal('questCleared'), questId: PosInt }),
]);
export type Condition = t.TypeOf<typeof Condition>;

export const Achievement = t.type({ achievementId: PosInt, name: Name, description: Name, condition: Condition });
export type Achievement = t.TypeOf<typeof Achievement>;

export const ChestPrize = t.type({ prizeId: PosInt, grant: Grant, count: PosInt, jackpot: t.boolean });
export type ChestPrize = t.TypeOf<typeof ChestPrize>;
export const Chest = t.type({
  chestId: PosInt,
  name: Name,
  period: Period,
  /** The price of one draw. */
  cost: ItemAmount,
  /** Boxes in order; each holds exactly one jackpot; the last one repeats. */
  steps: t.array(t.type({ prizes: t.array(ChestPrize) })),
});
export type Chest = t.TypeOf<typeof Chest>;

export const Offer = t.type({
  offerId: PosInt,
  name: Name,
  requires: t.type({ playerLevel: PosInt, questId: t.union([PosInt, t.null]) }),
  materials: t.type({ gold: NonNegInt, items: t.array(ItemAmount) }),
  durationSeconds: PosInt,
  rewards: t.array(Grant),
  /** How many times a player may complete it; null: without limit. */
  limit: t.union([PosInt, t.null]),
});
export type Offer = t.TypeOf<typeof Offer>;

export const socialFiles = {
  social: SocialConfig,
  quests: t.array(Quest),
  achievements: t.array(Achievement),
  chests: t.array(Chest),
  offers: t.array(Offer),
};

export interface QuestIndexed extends Quest {
  readonly startsAt: number;
  readonly endsAt: number | null;
}
export interface ChestIndexed extends Chest {
  readonly startsAt: number;
  readonly endsAt: number | null;
}

/**
 * Indexes and cross-checks of this group's files, built once at start-up. Push a
 * problem (file, field, message) for anything that does not fit; the result is
 * merged into Master.
 */
export const indexSocial = (
  f: FilesOf<typeof baseFiles & typeof progressionFiles & typeof townFiles & typeof socialFiles>,
  problems: MasterProblem[],
) => {
  const offset = f.game.timezoneOffsetMinutes;
  const items = new Set(f.items.map((x) => x.itemId));
  const known: Record<Grant['kind'], (id: number) => boolean> = {
    item: (id) => items.has(id),
    character: (id) => f.characters.some((c) => c.characterId === id),
    weapon: (id) => f.weapons.some((w) => w.weaponId === id),
    townFacility: (id) => f.facilities.some((x) => x.facilityId === id),
    roomObject: (id) => f.roomObjects.some((x) => x.roomObjectId === id),
    gold: (id) => id === 0,
    gem: (id) => id === 0,
    paidGem: (id) => id === 0,
    kirara: (id) => id === 0,
  };
  const checkGrant = (file: string, field: string, g: Grant) => {
    if (!known[g.kind](g.objectId)) problems.push({ file, field, message: `no ${g.kind} ${g.objectId}` });
  };
  const period = (file: string, field: string, p: { start: string; end: string | null }) => {
    const startsAt = parseTime(p.start, offset);
    const endsAt = p.end === null ? null : parseTime(p.end, offset);
    if (startsAt === undefined) problems.push({ file, field: `${field}.start`, message: 'not a valid time' });
    if (endsAt === undefined) problems.push({ file, field: `${field}.end`, message: 'not a valid time' });
    return { startsAt: startsAt ?? 0, endsAt: endsAt ?? null };
  };
  const unique = <T>(rows: ReadonlyArray<T>, key: (r: T) => number, file: string, field: string): Map<number, T> => {
    const m = new Map<number, T>();
    rows.forEach((r, i) => {
      const id = key(r);
      if (m.has(id)) problems.push({ file, field: `${i}.${field}`, message: `duplicate id ${id}` });
      m.set(id, r);
    });
    return m;
  };

  const quest = new Map<number, QuestIndexed>();
  f.quests.forEach((q, i) => {
    const file = 'quests.json';
    if (quest.has(q.questId)) problems.push({ file, field: `${i}.questId`, message: `duplicate id ${q.questId}` });
    if (q.drops.rolls > 0 && q.drops.table.length === 0)
      problems.push({ file, field: `${i}.drops.table`, message: 'rolls without a table' });
    q.drops.table.forEach((d, j) => {
      if (d.grant) checkGrant(file, `${i}.drops.table.${j}.grant.objectId`, d.grant);
    });
    q.firstClear.forEach((g, j) => checkGrant(file, `${i}.firstClear.${j}.objectId`, g));
    quest.set(q.questId, { ...q, ...period(file, `${i}.period`, q.period) });
  });

  const achievement = unique(f.achievements, (a) => a.achievementId, 'achievements.json', 'achievementId');
  f.achievements.forEach((a, i) => {
    if (a.condition.kind === 'questCleared' && !quest.has(a.condition.questId)) {
      problems.push({
        file: 'achievements.json',
        field: `${i}.condition.questId`,
        message: `unknown quest ${a.condition.questId}`,
      });
    }
  });

  const chest = new Map<number, ChestIndexed>();
  f.chests.forEach((c, i) => {
    const file = 'chests.json';
    if (chest.has(c.chestId)) problems.push({ file, field: `${i}.chestId`, message: `duplicate id ${c.chestId}` });
    if (!items.has(c.cost.itemId))
      problems.push({ file, field: `${i}.cost.itemId`, message: `unknown item ${c.cost.itemId}` });
    if (c.steps.length === 0) problems.push({ file, field: `${i}.steps`, message: 'a chest needs at least one step' });
    c.steps.forEach((st, j) => {
      if (st.prizes.filter((p) => p.jackpot).length !== 1)
        problems.push({ file, field: `${i}.steps.${j}.prizes`, message: 'each step holds exactly one jackpot' });
      if (new Set(st.prizes.map((p) => p.prizeId)).size !== st.prizes.length)
        problems.push({ file, field: `${i}.steps.${j}.prizes`, message: 'prize ids repeat' });
      st.prizes.forEach((p, k) => checkGrant(file, `${i}.steps.${j}.prizes.${k}.grant.objectId`, p.grant));
    });
    chest.set(c.chestId, { ...c, ...period(file, `${i}.period`, c.period) });
  });

  const offer = unique(f.offers, (o) => o.offerId, 'offers.json', 'offerId');
  f.offers.forEach((o, i) => {
    const file = 'offers.json';
    if (o.requires.questId !== null && !quest.has(o.requires.questId))
      problems.push({ file, field: `${i}.requires.questId`, message: `unknown quest ${o.requires.questId}` });
    o.materials.items.forEach((it, j) => {
      if (!items.has(it.itemId))
        problems.push({ file, field: `${i}.materials.items.${j}.itemId`, message: `unknown item ${it.itemId}` });
    });
    o.rewards.forEach((g, j) => checkGrant(file, `${i}.rewards.${j}.objectId`, g));
  });
  if (f.social.quest.questDataMaxLength > 60000)
    problems.push({
      file: 'social.json',
      field: 'quest.questDataMaxLength',
      message: 'must fit in a request body (at most 60000)',
    });

  return { quest, achievement, chest, offer } as {
    quest: ReadonlyMap<number, QuestIndexed>;
    achievement: ReadonlyMap<number, Achievement>;
    chest: ReadonlyMap<number, ChestIndexed>;
    offer: ReadonlyMap<number, Offer>;
  };
};
