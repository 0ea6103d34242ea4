// The simulation: a population of players, day by day, each following a
// behaviour profile, every action through the same reducers the service runs
// (core/operation.ts `run`, the operations table). Deterministic: the population,
// every behaviour choice and every operation's rng come from the seed, and the
// players act in id order, so the same seed gives the same result byte for byte.
import { createPlayer } from '../../core/account.js';
import type { Master } from '../../core/master/index.js';
import { execute, run } from '../../core/operation.js';
import { statOf } from '../../core/operations/gacha.js';
import { entryByName, operationByName, runNamed } from '../../core/operations/table.js';
import { lazyRng, pickWeighted, rngFromSeed, type Rng } from '../../core/rng.js';
import { itemCount, staminaNow } from '../../core/shared/player.js';
import type { PlayerState } from '../../core/state.js';
import { DAY, HOUR } from '../../core/time.js';
import type { Profile, SimConfig } from './config.js';

export interface SimParams {
  readonly seed: string;
  readonly players: number;
  readonly days: number;
}

export const CURRENCIES = ['gold', 'gem', 'paidGem', 'kirara'] as const;
export type Currency = typeof CURRENCIES[number];

interface Flow { sources: Record<string, number>; sinks: Record<string, number> }

interface Agent {
  readonly id: number;
  readonly profile: Profile;
  state: PlayerState;
  /** The next quest (index into the story quests) the player has not cleared yet. */
  questIndex: number;
  facility: number | null;
  partySet: boolean;
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
export interface Band { readonly p10: number; readonly p50: number; readonly p90: number }
/** Gems held (free + paid), coins held and pickup characters owned (of the profile's gacha). */
export interface ProfileBands { readonly gems: Band; readonly coins: Band; readonly pickups: Band }

export interface Stats { readonly mean: number; readonly median: number; readonly p90: number; readonly max: number }

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
  readonly currency: Record<Currency, { sources: Record<string, number>; sinks: Record<string, number>; heldAtEnd: number; heldPerPlayer: number }>;
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
  return { mean: r3(s.reduce((a, b) => a + b, 0) / s.length), median: at(0.5), p90: at(0.9), max: s[s.length - 1] as number };
};

const sorted = (o: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k] as number]));

/** Runs a simulation. `onDay` is told after each day (for a progress bar). */
export const simulate = (m: Master, config: SimConfig, params: SimParams, onDay?: (day: number) => void): SimResult => {
  const { seed, players, days } = params;
  const start = Date.parse(config.start);
  const ops = new Map<string, NonNullable<ReturnType<typeof operationByName>>>();
  const opOf = (name: string) => {
    let op = ops.get(name);
    if (!op) {
      op = operationByName(name);
      if (!op) throw new Error(`no operation ${name}`);
      ops.set(name, op);
    }
    return op;
  };
  // Battle quests only: an adv-only quest is a story scene, viewed with adv/add, never ordered.
  const story = [...m.quest.values()].filter((q) => q.type === 1 && !q.advOnly).sort((a, b) => a.questId - b.questId);
  const facility = m.facility.get(config.facilityId);
  if (!facility) throw new Error(`config: no facility ${config.facilityId}`);
  const largestStore = Math.max(1, ...facility.levels.map((l) => l.production?.cap ?? 0));
  const profilesWeighted = config.profiles.map((p, i) => ({ p, i, weight: p.share })).filter((x) => x.weight > 0);
  for (const p of config.profiles) if (!m.gacha.get(p.gachaId)) throw new Error(`config: profile ${p.name}: no gacha ${p.gachaId}`);
  const rarity = (characterId: number) => m.character.get(characterId)?.rarity ?? 0;
  const topPickup = (gachaId: number): number | null => {
    const g = m.gacha.get(gachaId);
    const ps = [...(g?.pickups ?? [])].sort((a, b) => rarity(b.characterId) - rarity(a.characterId) || b.shareBp - a.shareBp);
    return ps[0]?.characterId ?? null;
  };

  const flows = Object.fromEntries(CURRENCIES.map((c) => [c, { sources: {}, sinks: {} } as Flow])) as Record<Currency, Flow>;
  const opCount: Record<string, { ok: number; failed: Record<string, number> }> = {};
  const byRarity: Record<string, number> = {};
  let dayEarned = { gem: 0, gold: 0 };
  let daySpent = { gem: 0, gold: 0 };
  let dayDraws = 0;

  // The population: profiles by share, from the seed.
  const popRng = rngFromSeed(`${seed}:population`);
  const agents: Agent[] = [];
  for (let id = 1; id <= players; id++) {
    const { p } = pickWeighted(popRng, profilesWeighted);
    const created = createPlayer(m, { playerId: id, uuid: `sim-${id}`, platform: 1, name: `${p.name}${id}`.slice(0, m.game.player.nameMaxLength), stepCode: 0, tokenHash: '' }, rngFromSeed(`${seed}:signup:${id}`), start);
    if (created._tag === 'Left') throw new Error(`createPlayer: ${created.left.code}`);
    agents.push({
      id, profile: p, state: created.right, questIndex: 0, facility: null, partySet: false, playDays: 0, quests: 0, staminaUsed: 0,
      draws: 0, targetDraws: 0, pickupAt: null, pickupBy: null, gemsEarned: 0, gemsOnDraws: 0, gemsOther: 0,
    });
  }

  const account = (a: Agent, name: string, before: PlayerState, after: PlayerState): void => {
    for (const c of CURRENCIES) {
      const d = after[c] - before[c];
      if (d === 0) continue;
      const side = d > 0 ? flows[c].sources : flows[c].sinks;
      side[name] = (side[name] ?? 0) + Math.abs(d);
    }
    const gems = (after.gem + after.paidGem) - (before.gem + before.paidGem);
    if (gems > 0) { a.gemsEarned += gems; dayEarned.gem += gems; }
    if (gems < 0) {
      if (name === 'drawPlayerGacha') a.gemsOnDraws -= gems; else a.gemsOther -= gems;
      daySpent.gem -= gems;
    }
    const gold = after.gold - before.gold;
    if (gold > 0) dayEarned.gold += gold; else daySpent.gold -= gold;
  };

  /** Runs one operation for an agent (and the players it names); a failure is counted and changes nothing. */
  const step = (a: Agent, name: string, request: unknown, now: number, otherIds: ReadonlyArray<number> = []): Record<string, unknown> | null => {
    const others = otherIds.map((id) => agents[id - 1]?.state);
    const r = run(opOf(name), a.state, request, rngFromSeed(`${seed}:${a.id}:${a.state.version}`), now, { master: m, others });
    const count = (opCount[name] ??= { ok: 0, failed: {} });
    if (r._tag === 'Left') {
      count.failed[r.left.code] = (count.failed[r.left.code] ?? 0) + 1;
      return null;
    }
    count.ok++;
    account(a, name, a.state, r.right.state);
    a.state = r.right.state;
    r.right.others.forEach((o, i) => {
      const other = agents[(otherIds[i] ?? 0) - 1];
      if (o && other && o !== other.state && other.id !== a.id) { account(other, name, other.state, o); other.state = o; }
    });
    return r.right.response;
  };

  const operatorPresent = entryByName('adminSendPresent') as NonNullable<ReturnType<typeof entryByName>>;
  const present = (a: Agent, grant: SimConfig['dailyGift'], title: string, now: number): void => {
    if (!grant) return;
    // As the operator API does: its table entry, run as every entry is.
    const r = execute(operatorPresent, a.state, { playerId: a.state.playerId, grant, title, message: '', deadline: null }, lazyRng(() => ''), now, { master: m, others: [] });
    if (r._tag === 'Right') a.state = r.right.state;
  };

  const receiveAll = (a: Agent, now: number): void => {
    const ids = a.state.presents.slice(0, m.game.presents.receiveMax).map((p) => p.managedPresentId);
    if (ids.length > 0) step(a, 'getPlayerPresent', { managedPresentId: ids.join(','), stepCode: 0 }, now);
  };

  const pulls: Record<string, { single: number; ten: number }> = {};
  const pickupsOf = new Map(config.profiles.map((p) => [p, new Set((m.gacha.get(p.gachaId)?.pickups ?? []).map((x) => x.characterId))]));
  const pickupsOwned = (a: Agent) => {
    const ps = pickupsOf.get(a.profile) as Set<number>;
    return ps.size === 0 ? 0 : a.state.characters.filter((c) => ps.has(c.characterId)).length;
  };
  const profileBands = (xs: ReadonlyArray<Agent>): ProfileBands => ({
    gems: band(xs.map((a) => a.state.gem + a.state.paidGem)), coins: band(xs.map((a) => a.state.gold)), pickups: band(xs.map(pickupsOwned)),
  });
  const byProfile = new Map(config.profiles.map((p) => [p, [] as Agent[]]));
  for (const a of agents) byProfile.get(a.profile)?.push(a);

  const noteDraw = (a: Agent, gachaId: number, response: Record<string, unknown> | null): void => {
    if (!response) return;
    const results = (response['gachaResults'] as Array<{ characterId: number }> | undefined) ?? [];
    const pickup = a.profile.gachaId === gachaId ? topPickup(gachaId) : null;
    results.forEach((x, i) => {
      const k = String(rarity(x.characterId));
      byRarity[k] = (byRarity[k] ?? 0) + 1;
      if (pickup !== null && a.pickupAt === null && x.characterId === pickup) { a.pickupAt = a.targetDraws + i + 1; a.pickupBy = 'draw'; }
    });
    a.draws += results.length;
    const kinds = (pulls[String(gachaId)] ??= { single: 0, ten: 0 });
    if (results.length === 1) kinds.single++; else kinds.ten += results.length;
    dayDraws += results.length;
    if (a.profile.gachaId === gachaId) a.targetDraws += results.length;
  };

  const party = (a: Agent, now: number): void => {
    const first = a.state.characters[0];
    if (a.partySet || !first) return;
    const slot = (c: number | null) => ({ managedCharacterId: c, managedWeaponId: null });
    const slots = (c: number | null) => [slot(c), slot(null), slot(null), slot(null), slot(null)];
    const parties = Array.from({ length: 15 }, (_, i) => ({ managedBattlePartyId: i + 1, slots: slots(i === 0 ? first.managedCharacterId : null) }));
    a.partySet = step(a, 'setAllPlayerBattleParty', { managedBattleParties: parties }, now) !== null;
  };

  const quests = (a: Agent, now: number): void => {
    if (!a.partySet) return;
    for (let n = 0; n < a.profile.questsPerDay; n++) {
      const stamina = staminaNow(m, a.state, now);
      // The next story quest for its first-clear reward; after the story, the dearest one affordable.
      const q = a.questIndex < story.length ? story[a.questIndex] : [...story].reverse().find((x) => x.stamina <= stamina);
      if (!q || q.stamina > stamina) return;
      const order = step(a, 'orderPlayerQuestLog', { type: q.type, questId: q.questId, managedBattlePartyId: 1, supportCharacterId: -1, questData: '' }, now);
      if (!order) return;
      a.staminaUsed += q.stamina;
      const done = step(a, 'completePlayerQuestLog', {
        // As the original's clients send it: state 2 is a clear, the battle lists "id:n" strings.
        orderReceiveId: order['orderReceiveId'], state: 2, clearRank: 3, skillExps: '', dropItems: '', killedEnemies: '', weaponSkillExps: '',
        uniqueSkillUseNum: 0, masterSkillUseNum: 0, friendUseNum: 0, stepCode: 0,
      }, now);
      if (!done) return;
      a.quests++;
      if (a.questIndex < story.length && q.questId === story[a.questIndex]?.questId) a.questIndex++;
    }
  };

  const town = (a: Agent, now: number): void => {
    if (!a.profile.collectFacilities) return;
    if (a.facility === null) {
      const bought = step(a, 'buyAllPlayerTownFacility', { facilities: [{ facilityId: config.facilityId, amount: 1 }] }, now);
      const id = (bought?.['managedTownFacilityIds'] as number[] | undefined)?.[0];
      if (id === undefined) return;
      a.facility = id;
      step(a, 'openUpPlayerTownFacility', { managedTownFacilityId: id }, now);
      return;
    }
    const f = a.state.facilities.find((x) => x.managedTownFacilityId === a.facility);
    if (!f) return;
    if (f.levelUp && f.levelUp.completesAt > now) return;
    step(a, 'itemUpPlayerTownFacility', { managedTownFacilityId: f.managedTownFacilityId, itemNo: 0, amount: largestStore, actionTime: now }, now);
    if (!a.profile.levelUpFacilities) return;
    const cur = a.state.facilities.find((x) => x.managedTownFacilityId === a.facility);
    const lv = cur && facility.levels.find((l) => l.level === cur.level);
    const next = cur && facility.levels.find((l) => l.level === cur.level + 1);
    // Level up when the coins are there and the items held (the sim does not buy items).
    const cost = lv?.levelUp;
    if (cur && cost && next && !cur.levelUp && a.state.gold >= cost.gold && cost.items.every((x) => itemCount(a.state, x.itemId) >= x.amount)) {
      step(a, 'levelUpPlayerTownFacility', { managedTownFacilityId: cur.managedTownFacilityId }, now);
    }
  };

  const training = (a: Agent, now: number): void => {
    if (!a.profile.training) return;
    const running = a.state.trainings.find((x) => x.slotId === 1);
    if (running) {
      if (running.completesAt > now) return;
      step(a, 'completesPlayerTraining', { slotId: 1 }, now);
    }
    const tr = m.training.get(config.trainingId);
    const ids = a.state.characters.slice(0, tr?.characterCount ?? 1).map((c) => c.managedCharacterId);
    if (tr && ids.length === tr.characterCount && a.state.gold >= (tr.cost.gold ?? 0)) step(a, 'ordersPlayerTraining', { slotId: 1, trainingId: tr.trainingId, managedCharacterIds: ids }, now);
  };

  const gacha = (a: Agent, now: number): void => {
    // Tickets first: a single draw spends the Standard Gacha's ticket when held.
    for (const g of m.gacha.values()) {
      const ticket = g.cost.ticketItemId;
      if (ticket === null || g.kind !== 'standard') continue;
      while (itemCount(a.state, ticket) > 0) {
        const r = step(a, 'drawPlayerGacha', { gachaId: g.gachaId, drawType: 1, stepCode: 0, reDraw: false }, now);
        noteDraw(a, g.gachaId, r);
        if (!r) break;
      }
    }
    const g = m.gacha.get(a.profile.gachaId);
    if (!g) return;
    const gems = () => a.state.gem + a.state.paidGem;
    if (gems() >= a.profile.drawAtGems) {
      while (gems() >= g.cost.tenGem) {
        const r = step(a, 'drawPlayerGacha', { gachaId: g.gachaId, drawType: 3, stepCode: 0, reDraw: false }, now);
        noteDraw(a, g.gachaId, r);
        if (!r) break;
      }
    }
    const target = g.targets[0];
    if (a.profile.exchangePoints && target && statOf(a.state, g.gachaId).points >= target.points && !a.state.characters.some((c) => c.characterId === target.characterId)) {
      if (step(a, 'pointToCharacterPlayerGacha', { gachaId: g.gachaId, characterId: target.characterId }, now) && a.pickupAt === null && target.characterId === topPickup(g.gachaId)) {
        a.pickupAt = a.targetDraws;
        a.pickupBy = 'points';
      }
    }
  };

  const friends = (a: Agent, rng: Rng, now: number): void => {
    for (const rel of a.state.friends.filter((x) => x.state === 'received')) step(a, 'acceptPlayerFriend', { playerId: rel.playerId }, now, [rel.playerId]);
    if (players > 1 && rng.next() < a.profile.friendRequestChance) {
      const other = 1 + rng.int(players);
      if (other !== a.id && !a.state.friends.some((x) => x.playerId === other)) step(a, 'proposePlayerFriend', { playerId: other }, now, [other]);
    }
  };

  const daily: DayRow[] = [];
  for (let day = 0; day < days; day++) {
    dayEarned = { gem: 0, gold: 0 };
    daySpent = { gem: 0, gold: 0 };
    dayDraws = 0;
    let playing = 0;
    for (const a of agents) {
      const rng = rngFromSeed(`${seed}:day:${day}:${a.id}`);
      // Log-ins spread over four hours from the configured start time.
      const now = start + day * DAY + rng.int(4 * HOUR);
      present(a, config.dailyGift, config.dailyGiftTitle, now);
      if (rng.next() >= a.profile.playChance) continue;
      playing++;
      a.playDays++;
      if (a.profile.purchaseGemsPerDay > 0) present(a, { kind: 'paidGem', objectId: 0, amount: a.profile.purchaseGemsPerDay }, 'Purchase', now);
      receiveAll(a, now);
      gacha(a, now);
      party(a, now);
      training(a, now);
      quests(a, now);
      town(a, now);
      friends(a, rng, now);
      receiveAll(a, now);
    }
    daily.push({
      day: day + 1, playing,
      gemsHeld: agents.reduce((s, a) => s + a.state.gem + a.state.paidGem, 0),
      goldHeld: agents.reduce((s, a) => s + a.state.gold, 0),
      gemsEarned: dayEarned.gem, gemsSpent: daySpent.gem, goldEarned: dayEarned.gold, goldSpent: daySpent.gold, draws: dayDraws,
      bands: Object.fromEntries(config.profiles.map((p) => [p.name, profileBands(byProfile.get(p) ?? [])])),
    });
    onDay?.(day + 1);
  }

  /** box/get's rates for the pulls made (single and ten-draw, per gacha), and the observed share's band around them. */
  const publishedRates = (): { publishedRate: Record<string, number>; band: Record<string, number> } => {
    const expected: Record<string, number> = {};
    let n = 0;
    const someone = agents[0];
    for (const [id, k] of Object.entries(pulls)) {
      if (!someone) break;
      const box = runNamed('getPlayerGachaBox', someone.state, { gachaId: Number(id) }, rngFromSeed('box'), start, { master: m, others: [] });
      if (box._tag === 'Left') continue;
      for (const r of box.right.response.rarityRates) expected[String(r.rarity)] = (expected[String(r.rarity)] ?? 0) + k.single * r.probability;
      for (const r of box.right.response.tenDraw.rarityRates) expected[String(r.rarity)] = (expected[String(r.rarity)] ?? 0) + k.ten * r.probability;
      n += k.single + k.ten;
    }
    const keys = Object.keys(expected).sort();
    const p = (k: string) => (n === 0 ? 0 : (expected[k] as number) / n);
    return {
      publishedRate: Object.fromEntries(keys.map((k) => [k, Math.round(p(k) * 1e5) / 1e5])),
      band: Object.fromEntries(keys.map((k) => [k, n === 0 ? 0 : Math.round(3.2905 * Math.sqrt((p(k) * (1 - p(k))) / n) * 1e5) / 1e5])),
    };
  };

  const fives = (a: Agent) => a.state.characters.filter((c) => rarity(c.characterId) === 5).length;
  const five = agents.map(fives);
  const hist: number[] = [];
  for (const n of five) hist[n] = (hist[n] ?? 0) + 1;
  const targeting = agents.filter((a) => a.targetDraws > 0 || a.pickupAt !== null);
  const reached = targeting.filter((a) => a.pickupAt !== null).map((a) => a.pickupAt as number);
  const pickupHist: number[] = [];
  for (const n of reached) { const b = Math.max(0, Math.ceil(n / 10) - 1); pickupHist[b] = (pickupHist[b] ?? 0) + 1; }
  const totalDraws = Object.values(byRarity).reduce((x, y) => x + y, 0);
  const per = (xs: Agent[], f: (a: Agent) => number) => (xs.length === 0 ? 0 : r3(xs.reduce((s, a) => s + f(a), 0) / xs.length));
  const playerDays = players * days;
  const staminaUsed = agents.reduce((s, a) => s + a.staminaUsed, 0);
  const mainPickups = [...new Set(config.profiles.map((p) => topPickup(p.gachaId)))];

  return {
    params: { seed, players, days, start: config.start, profiles: config.profiles.map((p) => p.name) },
    playerDays,
    profiles: config.profiles.map((p) => {
      const xs = agents.filter((a) => a.profile === p);
      return {
        name: p.name, players: xs.length,
        playDaysPerPlayer: per(xs, (a) => a.playDays),
        gemsEarnedPerPlayer: per(xs, (a) => a.gemsEarned),
        gemsOnDrawsPerPlayer: per(xs, (a) => a.gemsOnDraws),
        gemsOtherPerPlayer: per(xs, (a) => a.gemsOther),
        gemsSavedPerPlayer: per(xs, (a) => a.state.gem + a.state.paidGem),
        drawsPerPlayer: per(xs, (a) => a.draws),
        fiveStarsPerPlayer: per(xs, fives),
        questsPerPlayer: per(xs, (a) => a.quests),
        staminaUsedPerPlayer: per(xs, (a) => a.staminaUsed),
        playerLevel: per(xs, (a) => a.state.level),
        coinsHeldPerPlayer: per(xs, (a) => a.state.gold),
        pickupsPerPlayer: per(xs, pickupsOwned),
        bands: profileBands(xs),
      };
    }),
    currency: Object.fromEntries(CURRENCIES.map((c) => {
      const held = agents.reduce((s, a) => s + a.state[c], 0);
      return [c, { sources: sorted(flows[c].sources), sinks: sorted(flows[c].sinks), heldAtEnd: held, heldPerPlayer: players === 0 ? 0 : r3(held / players) }];
    })) as SimResult['currency'],
    draws: {
      total: totalDraws,
      byRarity: sorted(byRarity),
      observedRate: Object.fromEntries(Object.keys(byRarity).sort().map((k) => [k, totalDraws === 0 ? 0 : Math.round((byRarity[k] as number) / totalDraws * 1e5) / 1e5])),
      ...publishedRates(),
      pulls: Object.fromEntries(Object.keys(pulls).sort((x, y) => Number(x) - Number(y)).map((k) => [k, pulls[k] as { single: number; ten: number }])),
    },
    fiveStarsOwned: { ...stats(five), histogram: Array.from(hist, (x) => x ?? 0) },
    drawsToPickup: {
      characterId: mainPickups.length === 1 ? mainPickups[0] ?? null : null,
      players: targeting.length,
      byDraw: targeting.filter((a) => a.pickupBy === 'draw').length,
      byPoints: targeting.filter((a) => a.pickupBy === 'points').length,
      notYet: targeting.filter((a) => a.pickupAt === null).length,
      draws: stats(reached),
      histogram: Array.from(pickupHist, (x) => x ?? 0),
    },
    stamina: { used: staminaUsed, perPlayerDay: playerDays === 0 ? 0 : r3(staminaUsed / playerDays), questsCleared: agents.reduce((s, a) => s + a.quests, 0) },
    operations: Object.fromEntries(Object.keys(opCount).sort().map((k) => {
      const c = opCount[k] as { ok: number; failed: Record<string, number> };
      return [k, { ok: c.ok, failed: sorted(c.failed) }];
    })),
    friendsPerPlayer: per(agents, (a) => a.state.friends.filter((x) => x.state === 'friend').length),
    daily,
  };
};
