// Wire views of the gacha group: a draw's results, get_all's entries in the original's
// shape, box/get's rates and the draw history's entries, with the codecs that type them.
import * as t from 'io-ts';
import type { GachaIndexed, Master } from '../master/index.js';
import { Gacha } from '../master/base.js';
import { described } from '../codecs.js';
import type { DrawRecord, GachaStat, PlayerState } from '../state.js';
import { itemCount } from '../shared/player.js';
import { ownedCharacter } from '../shared/grant.js';
import { tableOf } from '../gacha/rates.js';
import { buildBox } from '../gacha/box.js';
import { DRAW_PAID_SINGLE, DRAW_SINGLE, DRAW_TEN, drawsToday, openNow, statOf, today } from '../gacha/stats.js';
import { optTime, timeText } from './context.js';
import { WireTime, nullable } from './codecs.js';

const num = t.number;
const str = t.string;
const bool = t.boolean;

// ---- draw, fix ----
export const GachaResult = t.type(
  {
    characterId: num,
    rarity: num,
    /** Not owned before this draw (a second copy in the same ten-draw is not new). */
    isNew: bool,
    pickup: bool,
    /** What a duplicate turns into: its limit-break item; null when new. */
    itemId: nullable(num),
    itemAmount: num,
  },
  'GachaResult',
);

export const resultView = (m: Master, s: PlayerState, g: GachaIndexed, ids: ReadonlyArray<number>) => {
  const seen = new Set<number>();
  return ids.map((id) => {
    const c = m.character.get(id);
    const isNew = !ownedCharacter(s, id) && !seen.has(id);
    seen.add(id);
    return {
      characterId: id,
      rarity: c?.rarity ?? 0,
      isNew,
      pickup: g.pickups.some((p) => p.characterId === id),
      itemId: isNew ? null : (c?.limitBreakItemId ?? null),
      itemAmount: isNew ? 0 : (m.rarity.get(c?.rarity ?? 0)?.duplicateItemAmount ?? 0),
    };
  });
};

// ---- get_all ----
// The answer has the shape of the original's one captured get_all answer: each entry
// is `{gacha: {id, name, type, gem1, ...}, gem1Total, ...}` with "none" as -1 in the
// gacha's numbers, as the original had it; hoshi's own fields stand beside, declared.
// docs/rules/foundation.md gives the mapping.

/** The original's value for "none" in a gacha's numbers (no price, no ticket, no limit). */
const NONE = -1;
const orNone = (n: number | null): number => n ?? NONE;

/** A weekday flag of the gacha: open on that weekday's game day (from the daily reset hour) or not. */
const weekday = (day: string) =>
  described(num, `1: open on ${day}s (game days, from the daily reset hour, in the game's time zone); 0: closed.`);

/** The gacha itself, as the original's `gacha` object, for this player (first10 is -1 once used). */
export const GachaDefinitionView = t.type(
  {
    id: described(num, 'The gacha id (gachaId in requests).'),
    name: str,
    type: described(num, "The original's gacha type: 1, a normal gacha (hoshi has no step-up gachas)."),
    kind: described(Gacha.props.kind, "hoshi's kind: standard, pickup, or firstTime (the re-draw gacha)."),
    gem1: described(num, 'Gems for a single draw (drawType 1 without the ticket).'),
    gem10: described(num, 'Gems for a ten-draw (drawType 3).'),
    first10: described(
      num,
      "Gems for this player's first ten-draw of this gacha (a discount on gem10); -1 when the gacha has no such discount or the player has used it.",
    ),
    unlimitedGem: described(num, 'Paid gems for a paid single draw (drawType 2); -1 when not offered.'),
    itemId: described(num, 'The ticket item a single draw spends when the player holds it; -1 when none.'),
    itemAmount: described(num, 'How many of itemId a ticket draw spends; -1 when there is no ticket.'),
    startAt: described(WireTime, 'When the gacha opens.'),
    endAt: described(nullable(WireTime), 'When the gacha closes (exclusive); null when it has no end.'),
    sun: weekday('Sunday'),
    mon: weekday('Monday'),
    tue: weekday('Tuesday'),
    wed: weekday('Wednesday'),
    thu: weekday('Thursday'),
    fri: weekday('Friday'),
    sat: weekday('Saturday'),
    reDraw: described(num, '1 for a re-draw gacha (the first-time gacha, drawn again until fixed), else -1.'),
    drawLimit: described(num, 'Characters a player may draw a game day (a ten-draw counts ten); -1: no limit.'),
    allLimit: described(num, 'Characters a player may draw in all; -1: no limit.'),
    pointsPerDraw: described(num, 'Gacha points earned per character drawn.'),
  },
  'GachaDefinition',
);
export type GachaDefinitionView = t.TypeOf<typeof GachaDefinitionView>;

/** The player's draws of each kind (draws, not characters), in the kept draw history; re-draws are not draws. */
const DRAW_COUNTS = [
  'uGem1Total',
  'uGem1Daily',
  'gem1Total',
  'gem1Daily',
  'gem10Total',
  'gem10Daily',
  'itemTotal',
  'itemDaily',
] as const;
type DrawCounts = Record<(typeof DRAW_COUNTS)[number], number>;
const DrawCountsView = Object.fromEntries(DRAW_COUNTS.map((k) => [k, num])) as Record<
  (typeof DRAW_COUNTS)[number],
  t.NumberC
>;

/** One entry of get_all: the gacha, the player's draws of each kind, and hoshi's per-player fields. */
export const PlayerGachaView = t.type(
  {
    gacha: GachaDefinitionView,
    ...DrawCountsView,
    /** Drawable now (period and weekday); a gacha named by gachaIds may be listed closed. */
    open: bool,
    /** How many of the gacha's ticket the player holds (0 when it has none). */
    ticketHeld: num,
    /** Characters drawn this game day and in all: what drawLimit and allLimit count. */
    drawsToday: num,
    totalDraws: num,
    /** The player's gacha points of this gacha. */
    points: num,
    /** A re-draw gacha fixed by the player: it cannot be drawn again. */
    closed: bool,
    /** A re-draw gacha's result a re-roll would replace (character ids; owned since issue 33), null when none. */
    pending: nullable(t.array(num)),
  },
  'PlayerGacha',
);
export type PlayerGachaView = t.TypeOf<typeof PlayerGachaView>;

/** A step of a step-up gacha (the original's gachaSteps). hoshi has none: the list is always empty. */
export const GachaStepView = t.type(
  {
    gachaId: num,
    /** The step, from 1. */
    step: num,
    /** Gems the step costs, and the characters it draws. */
    gem: num,
    drawCount: num,
    /** Times the player drew this step. */
    drawn: num,
  },
  'GachaStep',
);
export type GachaStepView = t.TypeOf<typeof GachaStepView>;

const zeroCounts = (): DrawCounts => ({
  uGem1Total: 0,
  uGem1Daily: 0,
  gem1Total: 0,
  gem1Daily: 0,
  gem10Total: 0,
  gem10Daily: 0,
  itemTotal: 0,
  itemDaily: 0,
});

/** The kind a draw record counts as; null for a fix (drawType 0). */
const kindOf = (r: DrawRecord): 'uGem1' | 'gem1' | 'gem10' | 'item' | null => {
  if (r.drawType === DRAW_PAID_SINGLE) return 'uGem1';
  if (r.drawType === DRAW_TEN) return 'gem10';
  if (r.drawType === DRAW_SINGLE) return r.payment.ticket > 0 ? 'item' : 'gem1';
  return null;
};

/**
 * The player's draws of each kind per gacha, from the draw history (kept gacha.historyDays
 * days). A re-draw gacha's re-draws replace the pending draw: only the draw that started
 * it counts (the records after it, up to its fix, are re-draws).
 */
export const drawCounts = (m: Master, s: PlayerState, now: number): Map<number, DrawCounts> => {
  const day = today(m, now);
  const out = new Map<number, DrawCounts>();
  const pendingOf = new Set<number>();
  for (const r of s.gachaHistory) {
    const kind = kindOf(r);
    if (kind === null) {
      pendingOf.delete(r.gachaId);
      continue;
    }
    if (m.gacha.get(r.gachaId)?.reDraw) {
      if (pendingOf.has(r.gachaId)) continue;
      pendingOf.add(r.gachaId);
    }
    let c = out.get(r.gachaId);
    if (!c) {
      c = zeroCounts();
      out.set(r.gachaId, c);
    }
    c[`${kind}Total` as const]++;
    if (today(m, r.drawnAt) === day) c[`${kind}Daily` as const]++;
  }
  return out;
};

const definitionView = (m: Master, g: GachaIndexed, st: GachaStat, now: number): GachaDefinitionView => {
  const ctx = { master: m, now };
  const c = g.cost;
  const days = g.weekdays;
  const flag = (d: number) => (days === null || days.includes(d) ? 1 : 0);
  return {
    id: g.gachaId,
    name: g.name,
    type: 1,
    kind: g.kind,
    gem1: c.singleGem,
    gem10: c.tenGem,
    first10: st.firstTenUsed ? NONE : orNone(c.firstTenGem),
    unlimitedGem: orNone(c.paidSingleGem),
    itemId: orNone(c.ticketItemId),
    itemAmount: c.ticketItemId === null ? NONE : c.ticketAmount,
    startAt: timeText(ctx, g.startsAt),
    endAt: optTime(ctx, g.endsAt),
    sun: flag(0),
    mon: flag(1),
    tue: flag(2),
    wed: flag(3),
    thu: flag(4),
    fri: flag(5),
    sat: flag(6),
    reDraw: g.reDraw ? 1 : NONE,
    drawLimit: orNone(g.limits.perDay),
    allLimit: orNone(g.limits.total),
    pointsPerDraw: g.pointsPerDraw,
  };
};

export const gachaInfo = (
  m: Master,
  s: PlayerState,
  g: GachaIndexed,
  counts: DrawCounts | undefined,
  now: number,
): PlayerGachaView => {
  const st = statOf(s, g.gachaId);
  return {
    gacha: definitionView(m, g, st, now),
    ...(counts ?? zeroCounts()),
    open: openNow(m, g, now),
    ticketHeld: g.cost.ticketItemId === null ? 0 : itemCount(s, g.cost.ticketItemId),
    drawsToday: drawsToday(m, st, now),
    totalDraws: st.totalDraws,
    points: st.points,
    closed: st.closed,
    pending: st.pending ? st.pending.characterIds : null,
  };
};

// ---- box/get ----
/** What box/get shows that depends only on master data: built with it (core/gacha/box.ts); one of a gacha changed since is built afresh. */
export const boxOf = (m: Master, g: GachaIndexed) => {
  const built = m.gachaTables.get(g.gachaId);
  return built !== undefined && built.gacha === g ? built.box : buildBox(m, g, tableOf(m, g));
};

export const RarityRate = t.type({ rarity: num, probability: num }, 'GachaRarityRate');
const CharacterRate = t.type({ characterId: num, rarity: num, pickup: bool, probability: num }, 'GachaCharacterRate');
export const NamedRate = t.type(
  { characterId: num, name: str, rarity: num, pickup: bool, probability: num },
  'GachaBoxCharacter',
);
export const BoxPickup = t.type({ characterId: num, name: str, rarity: num, probability: num }, 'GachaBoxPickup');
export const BoxTarget = t.type(
  {
    characterId: num,
    name: str,
    rarity: num,
    /** Gacha points point_to_character costs. */
    points: num,
    owned: bool,
  },
  'GachaBoxTarget',
);
/** The ten-draw guarantee and the rates its redrawn last pull follows. */
export const Guarantee = t.type(
  {
    minRarity: num,
    appliesTo: str,
    rarities: t.array(RarityRate),
    characters: t.array(CharacterRate),
  },
  'GachaGuarantee',
);

/** A whole ten-draw's effective rates, per pull, the guarantee included (exact, from the draw's tables). */
export const TenDraw = t.type(
  {
    /** Pulls in a ten-draw (master data gacha.tenDrawSize). */
    draws: num,
    /** Share of a ten-draw's characters of each rarity: the chance of the rarity per pull, averaged over the draw. */
    rarityRates: t.array(RarityRate),
    /** The same for each pickup character. */
    pickups: t.array(BoxPickup),
    /** The chance that no pull reaches guarantee.minRarity, so the last pull is redrawn from the guarantee's rates; 0 without a guarantee. */
    guaranteeProbability: num,
  },
  'GachaTenDrawRates',
);

// ---- history ----
/** What a record of the draw history was: a draw (by how it was paid), a re-draw of a pending result, or the fix that granted it. */
export const HistoryKind = t.keyof(
  { single: null, paidSingle: null, ticket: null, ten: null, reDraw: null, fix: null },
  'GachaHistoryKind',
);
export type HistoryKind = t.TypeOf<typeof HistoryKind>;

export const HistoryEntry = t.type(
  {
    gachaId: num,
    /** The gacha's name in the master data now ('' for a gacha no longer in it). */
    name: str,
    drawnAt: WireTime,
    /** The request's drawType (0 for a fix). */
    drawType: num,
    kind: HistoryKind,
    /** What the draw cost: tickets (of ticketItemId), free gems and paid gems. Re-draws and fixes cost nothing. */
    paid: t.type({ ticket: num, ticketItemId: nullable(num), gem: num, paidGem: num }, 'GachaHistoryPayment'),
    /** The characters drawn, in the order drawn; pickup: a pickup of the gacha in the master data now. */
    characters: t.array(t.type({ characterId: num, name: str, rarity: num, pickup: bool }, 'GachaHistoryCharacter')),
    /** Whether the characters were granted by this record (false for a re-draw gacha's pending draws). */
    granted: bool,
  },
  'GachaHistoryEntry',
);

/**
 * The kind of every record of a history, in its order: a re-draw gacha's records after its
 * first draw, up to the fix (or the record that made the result final), are re-draws. A
 * gacha no longer in the master data is known for a re-draw gacha by its fix records.
 */
export const historyKinds = (m: Master, history: ReadonlyArray<DrawRecord>): HistoryKind[] => {
  const pending = new Set<number>();
  const fixed = new Set<number>();
  for (const r of history) if (r.drawType === 0) fixed.add(r.gachaId);
  return history.map((r) => {
    const kind = kindOf(r);
    if (kind === null) {
      pending.delete(r.gachaId);
      return 'fix';
    }
    if ((m.gacha.get(r.gachaId)?.reDraw ?? fixed.has(r.gachaId)) || !r.granted) {
      if (pending.has(r.gachaId)) return 'reDraw';
      pending.add(r.gachaId);
    }
    return ({ uGem1: 'paidSingle', gem1: 'single', gem10: 'ten', item: 'ticket' } as const)[kind];
  });
};
