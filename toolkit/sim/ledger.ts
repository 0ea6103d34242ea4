// The simulation's ledger: what the players earned, spent, drew and own, day by day and
// per player, and the run's result (SimResult) summed up from it at the end.
import type { Master } from '../../core/master/index.js';
import { runNamed } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import type { PlayerState } from '../../core/state.js';
import type { Profile, SimConfig } from './config.js';

export interface SimParams {
  readonly seed: string;
  readonly players: number;
  readonly days: number;
}

export const CURRENCIES = ['gold', 'gem', 'paidGem', 'kirara'] as const;
export type Currency = (typeof CURRENCIES)[number];

interface Flow {
  sources: Record<string, number>;
  sinks: Record<string, number>;
}

/** A simulated player as the ledger sees it: its state and its counts so far. */
export interface PlayerTally {
  readonly id: number;
  readonly profile: Profile;
  state: PlayerState;
  playDays: number;
  quests: number;
  staminaUsed: number;
  draws: number;
  /** Draws on the profile's gacha, and at which of them its top pickup was first owned (drawn or exchanged). */
  targetDraws: number;
  pickupAt: number | null;
  pickupBy: 'draw' | 'points' | null;
  gemsEarned: number;
  gemsOnDraws: number;
  gemsOther: number;
}

export interface DayRow {
  readonly day: number;
  readonly playing: number;
  readonly gemsHeld: number;
  readonly goldHeld: number;
  readonly gemsEarned: number;
  readonly gemsSpent: number;
  readonly goldEarned: number;
  readonly goldSpent: number;
  readonly draws: number;
  /** Per profile: the 10th, 50th and 90th percentiles over its players at the day's end. */
  readonly bands: Record<string, ProfileBands>;
}

/** The 10th, 50th and 90th percentiles of a quantity over a profile's players. */
export interface Band {
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}
/** Gems held (free + paid), coins held and pickup characters owned (of the profile's gacha). */
export interface ProfileBands {
  readonly gems: Band;
  readonly coins: Band;
  readonly pickups: Band;
}

export interface Stats {
  readonly mean: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
}

export interface ProfileResult {
  readonly name: string;
  readonly players: number;
  readonly playDaysPerPlayer: number;
  readonly gemsEarnedPerPlayer: number;
  readonly gemsOnDrawsPerPlayer: number;
  readonly gemsOtherPerPlayer: number;
  readonly gemsSavedPerPlayer: number;
  readonly drawsPerPlayer: number;
  readonly fiveStarsPerPlayer: number;
  readonly questsPerPlayer: number;
  readonly staminaUsedPerPlayer: number;
  readonly playerLevel: number;
  readonly coinsHeldPerPlayer: number;
  /** Pickup characters of the profile's gacha owned at the end. */
  readonly pickupsPerPlayer: number;
  /** Percentiles over the profile's players at the end. */
  readonly bands: ProfileBands;
}

export interface SimResult {
  readonly params: SimParams & { readonly start: string; readonly profiles: ReadonlyArray<string> };
  readonly playerDays: number;
  readonly profiles: ReadonlyArray<ProfileResult>;
  /** Every currency's population total by the operation that moved it (presents carry gifts, purchases and rewards sent as presents). */
  readonly currency: Record<
    Currency,
    { sources: Record<string, number>; sinks: Record<string, number>; heldAtEnd: number; heldPerPlayer: number }
  >;
  readonly draws: {
    readonly total: number;
    readonly byRarity: Record<string, number>;
    readonly observedRate: Record<string, number>;
    /**
     * What box/get publishes for the draws made: per rarity, the single rate for single
     * pulls and tenDraw's effective rate for ten-draw pulls, weighted by the pulls of each
     * kind on each gacha; and the 99.9% band of the observed share around it (pulls taken
     * as independent, which the guarantee makes a close approximation).
     */
    readonly publishedRate: Record<string, number>;
    readonly band: Record<string, number>;
    /** Pulls by gacha: in single draws and in ten-draws. */
    readonly pulls: Record<string, { single: number; ten: number }>;
  };
  readonly fiveStarsOwned: Stats & { readonly histogram: ReadonlyArray<number> };
  readonly drawsToPickup: {
    readonly characterId: number | null;
    readonly players: number;
    readonly byDraw: number;
    readonly byPoints: number;
    readonly notYet: number;
    readonly draws: Stats;
    /** Players by draws needed, in buckets of 10 (index i: 10·i+1 … 10·i+10). */
    readonly histogram: ReadonlyArray<number>;
  };
  readonly stamina: { readonly used: number; readonly perPlayerDay: number; readonly questsCleared: number };
  readonly operations: Record<string, { ok: number; failed: Record<string, number> }>;
  readonly friendsPerPlayer: number;
  readonly daily: ReadonlyArray<DayRow>;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** p10, p50, p90 of a list (nearest rank, as stats). */
export const band = (xs: ReadonlyArray<number>): Band => {
  if (xs.length === 0) return { p10: 0, p50: 0, p90: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return { p10: at(0.1), p50: at(0.5), p90: at(0.9) };
};

const stats = (xs: ReadonlyArray<number>): Stats => {
  if (xs.length === 0) return { mean: 0, median: 0, p90: 0, max: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return {
    mean: r3(s.reduce((a, b) => a + b, 0) / s.length),
    median: at(0.5),
    p90: at(0.9),
    max: s[s.length - 1] as number,
  };
};

const sorted = (o: Record<string, number>): Record<string, number> =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k] as number]),
  );

const per = (xs: ReadonlyArray<PlayerTally>, f: (a: PlayerTally) => number) =>
  xs.length === 0 ? 0 : r3(xs.reduce((s, a) => s + f(a), 0) / xs.length);

export const rarityOf = (m: Master, characterId: number): number => m.character.get(characterId)?.rarity ?? 0;

/** The gacha's pickup of the highest rarity (the larger share among equals): the character a profile draws for. */
export const topPickup = (m: Master, gachaId: number): number | null => {
  const g = m.gacha.get(gachaId);
  const ps = [...(g?.pickups ?? [])].sort(
    (a, b) => rarityOf(m, b.characterId) - rarityOf(m, a.characterId) || b.shareBp - a.shareBp,
  );
  return ps[0]?.characterId ?? null;
};

type Pulls = Record<string, { single: number; ten: number }>;
type OpCount = Record<string, { ok: number; failed: Record<string, number> }>;

/** The run's books: every total the result is summed up from. */
interface Books {
  readonly m: Master;
  readonly config: SimConfig;
  readonly params: SimParams;
  readonly players: ReadonlyArray<PlayerTally>;
  readonly flows: Record<Currency, Flow>;
  readonly opCount: OpCount;
  readonly byRarity: Record<string, number>;
  readonly pulls: Pulls;
  /** The pickup characters of each profile's gacha. */
  readonly pickupsOf: ReadonlyMap<Profile, ReadonlySet<number>>;
  readonly byProfile: ReadonlyMap<Profile, ReadonlyArray<PlayerTally>>;
  /** The current day's totals, reset each day. */
  day: { earned: { gem: number; gold: number }; spent: { gem: number; gold: number }; draws: number; playing: number };
  readonly daily: DayRow[];
}

const newDay = (): Books['day'] => ({ earned: { gem: 0, gold: 0 }, spent: { gem: 0, gold: 0 }, draws: 0, playing: 0 });

/** What an operation moved: each currency's flow by operation, the player's gems, the day's totals. */
const account = (b: Books, a: PlayerTally, name: string, before: PlayerState, after: PlayerState): void => {
  for (const c of CURRENCIES) {
    const d = after[c] - before[c];
    if (d === 0) continue;
    const side = d > 0 ? b.flows[c].sources : b.flows[c].sinks;
    side[name] = (side[name] ?? 0) + Math.abs(d);
  }
  const gems = after.gem + after.paidGem - (before.gem + before.paidGem);
  if (gems > 0) {
    a.gemsEarned += gems;
    b.day.earned.gem += gems;
  }
  if (gems < 0) {
    if (name === 'drawPlayerGacha') a.gemsOnDraws -= gems;
    else a.gemsOther -= gems;
    b.day.spent.gem -= gems;
  }
  const gold = after.gold - before.gold;
  if (gold > 0) b.day.earned.gold += gold;
  else b.day.spent.gold -= gold;
};

/** A draw's results (none when it failed): by rarity, by kind of pull, and the player's way to its top pickup. */
const noteDraw = (b: Books, a: PlayerTally, gachaId: number, response: Record<string, unknown> | null): void => {
  if (!response) return;
  const results = (response['gachaResults'] as Array<{ characterId: number }> | undefined) ?? [];
  const pickup = a.profile.gachaId === gachaId ? topPickup(b.m, gachaId) : null;
  results.forEach((x, i) => {
    const k = String(rarityOf(b.m, x.characterId));
    b.byRarity[k] = (b.byRarity[k] ?? 0) + 1;
    if (pickup !== null && a.pickupAt === null && x.characterId === pickup) {
      a.pickupAt = a.targetDraws + i + 1;
      a.pickupBy = 'draw';
    }
  });
  a.draws += results.length;
  const kinds = (b.pulls[String(gachaId)] ??= { single: 0, ten: 0 });
  if (results.length === 1) kinds.single++;
  else kinds.ten += results.length;
  b.day.draws += results.length;
  if (a.profile.gachaId === gachaId) a.targetDraws += results.length;
};

const pickupsOwned = (b: Books, a: PlayerTally): number => {
  const ps = b.pickupsOf.get(a.profile) as ReadonlySet<number>;
  return ps.size === 0 ? 0 : a.state.characters.filter((c) => ps.has(c.characterId)).length;
};

const profileBands = (b: Books, xs: ReadonlyArray<PlayerTally>): ProfileBands => ({
  gems: band(xs.map((a) => a.state.gem + a.state.paidGem)),
  coins: band(xs.map((a) => a.state.gold)),
  pickups: band(xs.map((a) => pickupsOwned(b, a))),
});

const closeDay = (b: Books, day: number): void => {
  const { players } = b;
  b.daily.push({
    day,
    playing: b.day.playing,
    gemsHeld: players.reduce((s, a) => s + a.state.gem + a.state.paidGem, 0),
    goldHeld: players.reduce((s, a) => s + a.state.gold, 0),
    gemsEarned: b.day.earned.gem,
    gemsSpent: b.day.spent.gem,
    goldEarned: b.day.earned.gold,
    goldSpent: b.day.spent.gold,
    draws: b.day.draws,
    bands: Object.fromEntries(b.config.profiles.map((p) => [p.name, profileBands(b, b.byProfile.get(p) ?? [])])),
  });
};

/** box/get's rates for the pulls made (single and ten-draw, per gacha), and the observed share's band around them. */
const publishedRates = (b: Books): { publishedRate: Record<string, number>; band: Record<string, number> } => {
  const expected: Record<string, number> = {};
  let n = 0;
  const someone = b.players[0];
  for (const [id, k] of Object.entries(b.pulls)) {
    if (!someone) break;
    const box = runNamed(
      'getPlayerGachaBox',
      someone.state,
      { gachaId: Number(id) },
      rngFromSeed('box'),
      Date.parse(b.config.start),
      { master: b.m, others: [] },
    );
    if (box._tag === 'Left') continue;
    for (const r of box.right.response.rarityRates)
      expected[String(r.rarity)] = (expected[String(r.rarity)] ?? 0) + k.single * r.probability;
    for (const r of box.right.response.tenDraw.rarityRates)
      expected[String(r.rarity)] = (expected[String(r.rarity)] ?? 0) + k.ten * r.probability;
    n += k.single + k.ten;
  }
  const keys = Object.keys(expected).sort();
  const p = (k: string) => (n === 0 ? 0 : (expected[k] as number) / n);
  return {
    publishedRate: Object.fromEntries(keys.map((k) => [k, Math.round(p(k) * 1e5) / 1e5])),
    band: Object.fromEntries(
      keys.map((k) => [k, n === 0 ? 0 : Math.round(3.2905 * Math.sqrt((p(k) * (1 - p(k))) / n) * 1e5) / 1e5]),
    ),
  };
};

const fiveStars = (b: Books, a: PlayerTally): number =>
  a.state.characters.filter((c) => rarityOf(b.m, c.characterId) === 5).length;

const profileResult = (b: Books, p: Profile): ProfileResult => {
  const xs = b.players.filter((a) => a.profile === p);
  return {
    name: p.name,
    players: xs.length,
    playDaysPerPlayer: per(xs, (a) => a.playDays),
    gemsEarnedPerPlayer: per(xs, (a) => a.gemsEarned),
    gemsOnDrawsPerPlayer: per(xs, (a) => a.gemsOnDraws),
    gemsOtherPerPlayer: per(xs, (a) => a.gemsOther),
    gemsSavedPerPlayer: per(xs, (a) => a.state.gem + a.state.paidGem),
    drawsPerPlayer: per(xs, (a) => a.draws),
    fiveStarsPerPlayer: per(xs, (a) => fiveStars(b, a)),
    questsPerPlayer: per(xs, (a) => a.quests),
    staminaUsedPerPlayer: per(xs, (a) => a.staminaUsed),
    playerLevel: per(xs, (a) => a.state.level),
    coinsHeldPerPlayer: per(xs, (a) => a.state.gold),
    pickupsPerPlayer: per(xs, (a) => pickupsOwned(b, a)),
    bands: profileBands(b, xs),
  };
};

const currencyResult = (b: Books): SimResult['currency'] =>
  Object.fromEntries(
    CURRENCIES.map((c) => {
      const held = b.players.reduce((s, a) => s + a.state[c], 0);
      const { players } = b.params;
      return [
        c,
        {
          sources: sorted(b.flows[c].sources),
          sinks: sorted(b.flows[c].sinks),
          heldAtEnd: held,
          heldPerPlayer: players === 0 ? 0 : r3(held / players),
        },
      ];
    }),
  ) as SimResult['currency'];

const drawsResult = (b: Books): SimResult['draws'] => {
  const totalDraws = Object.values(b.byRarity).reduce((x, y) => x + y, 0);
  return {
    total: totalDraws,
    byRarity: sorted(b.byRarity),
    observedRate: Object.fromEntries(
      Object.keys(b.byRarity)
        .sort()
        .map((k) => [k, totalDraws === 0 ? 0 : Math.round(((b.byRarity[k] as number) / totalDraws) * 1e5) / 1e5]),
    ),
    ...publishedRates(b),
    pulls: Object.fromEntries(
      Object.keys(b.pulls)
        .sort((x, y) => Number(x) - Number(y))
        .map((k) => [k, b.pulls[k] as { single: number; ten: number }]),
    ),
  };
};

const fiveStarsResult = (b: Books): SimResult['fiveStarsOwned'] => {
  const five = b.players.map((a) => fiveStars(b, a));
  const hist: number[] = [];
  for (const n of five) hist[n] = (hist[n] ?? 0) + 1;
  return { ...stats(five), histogram: Array.from(hist, (x) => x ?? 0) };
};

const drawsToPickupResult = (b: Books): SimResult['drawsToPickup'] => {
  const targeting = b.players.filter((a) => a.targetDraws > 0 || a.pickupAt !== null);
  const reached = targeting.filter((a) => a.pickupAt !== null).map((a) => a.pickupAt as number);
  const pickupHist: number[] = [];
  for (const n of reached) {
    const k = Math.max(0, Math.ceil(n / 10) - 1);
    pickupHist[k] = (pickupHist[k] ?? 0) + 1;
  }
  const mainPickups = [...new Set(b.config.profiles.map((p) => topPickup(b.m, p.gachaId)))];
  return {
    characterId: mainPickups.length === 1 ? (mainPickups[0] ?? null) : null,
    players: targeting.length,
    byDraw: targeting.filter((a) => a.pickupBy === 'draw').length,
    byPoints: targeting.filter((a) => a.pickupBy === 'points').length,
    notYet: targeting.filter((a) => a.pickupAt === null).length,
    draws: stats(reached),
    histogram: Array.from(pickupHist, (x) => x ?? 0),
  };
};

const result = (b: Books): SimResult => {
  const { seed, players, days } = b.params;
  const playerDays = players * days;
  const staminaUsed = b.players.reduce((s, a) => s + a.staminaUsed, 0);
  return {
    params: { seed, players, days, start: b.config.start, profiles: b.config.profiles.map((p) => p.name) },
    playerDays,
    profiles: b.config.profiles.map((p) => profileResult(b, p)),
    currency: currencyResult(b),
    draws: drawsResult(b),
    fiveStarsOwned: fiveStarsResult(b),
    drawsToPickup: drawsToPickupResult(b),
    stamina: {
      used: staminaUsed,
      perPlayerDay: playerDays === 0 ? 0 : r3(staminaUsed / playerDays),
      questsCleared: b.players.reduce((s, a) => s + a.quests, 0),
    },
    operations: Object.fromEntries(
      Object.keys(b.opCount)
        .sort()
        .map((k) => {
          const c = b.opCount[k] as { ok: number; failed: Record<string, number> };
          return [k, { ok: c.ok, failed: sorted(c.failed) }];
        }),
    ),
    friendsPerPlayer: per(b.players, (a) => a.state.friends.filter((x) => x.state === 'friend').length),
    daily: b.daily,
  };
};

export interface Ledger {
  /** An operation run: counted as done, or as failed with its error's code. */
  ran(name: string, failedWith: string | null): void;
  /** What a done operation changed in a player's currencies. */
  moved(a: PlayerTally, name: string, before: PlayerState, after: PlayerState): void;
  /** A draw's response, null when it failed. */
  drew(a: PlayerTally, gachaId: number, response: Record<string, unknown> | null): void;
  /** A character taken for gacha points: the player's top pickup, if it is that and not owned before. */
  exchanged(a: PlayerTally, gachaId: number, characterId: number): void;
  /** A player who plays today. */
  played(a: PlayerTally): void;
  openDay(): void;
  /** Ends day `day` (from 1): its row of totals and percentiles. */
  closeDay(day: number): void;
  result(): SimResult;
}

/** The ledger of a run over these players (in id order; their states are read as they change). */
export const createLedger = (
  m: Master,
  config: SimConfig,
  params: SimParams,
  players: ReadonlyArray<PlayerTally>,
): Ledger => {
  const byProfile = new Map(config.profiles.map((p) => [p, [] as PlayerTally[]]));
  for (const a of players) byProfile.get(a.profile)?.push(a);
  const b: Books = {
    m,
    config,
    params,
    players,
    byProfile,
    flows: Object.fromEntries(CURRENCIES.map((c) => [c, { sources: {}, sinks: {} } as Flow])) as Record<Currency, Flow>,
    opCount: {},
    byRarity: {},
    pulls: {},
    day: newDay(),
    daily: [],
    pickupsOf: new Map(
      config.profiles.map((p) => [p, new Set((m.gacha.get(p.gachaId)?.pickups ?? []).map((x) => x.characterId))]),
    ),
  };
  return {
    ran: (name, failedWith) => {
      const count = (b.opCount[name] ??= { ok: 0, failed: {} });
      if (failedWith === null) count.ok++;
      else count.failed[failedWith] = (count.failed[failedWith] ?? 0) + 1;
    },
    moved: (a, name, before, after) => account(b, a, name, before, after),
    drew: (a, gachaId, response) => noteDraw(b, a, gachaId, response),
    exchanged: (a, gachaId, characterId) => {
      if (a.pickupAt === null && characterId === topPickup(m, gachaId)) {
        a.pickupAt = a.targetDraws;
        a.pickupBy = 'points';
      }
    },
    played: (a) => {
      b.day.playing++;
      a.playDays++;
    },
    openDay: () => {
      b.day = newDay();
    },
    closeDay: (day) => closeDay(b, day),
    result: () => result(b),
  };
};
