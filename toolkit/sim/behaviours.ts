// What a simulated player does: sign up, log in each day (the daily gift) and, on a day
// it plays, buy gems, take presents, draw, set a party, train, quest, tend the town and
// make friends, every action through the core's reducers, its effects told to the ledger.
import { createPlayer } from '../../core/account.js';
import type { Master } from '../../core/master/index.js';
import type { QuestIndexed } from '../../core/master/social.js';
import type { Facility } from '../../core/master/town.js';
import { execute, run } from '../../core/operation.js';
import { statOf } from '../../core/operations/gacha.js';
import { entryByName, operationByName } from '../../core/operations/table.js';
import { lazyRng, pickWeighted, rngFromSeed, type Rng } from '../../core/rng.js';
import { itemCount, staminaNow } from '../../core/shared/player.js';
import { DAY, HOUR } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';
import type { SimConfig } from './config.js';
import { topPickup, type Ledger, type PlayerTally, type SimParams } from './ledger.js';

/** A player: the ledger's tally, and what its behaviours remember from one day to the next. */
export interface Agent extends PlayerTally {
  /** The next quest (index into the story quests) the player has not cleared yet. */
  questIndex: number;
  facility: number | null;
  partySet: boolean;
}

/** What the behaviours read from the master data and the config, checked once. */
export interface Scene {
  readonly start: number;
  /** Battle quests only: an adv-only quest is a story scene, viewed with adv/add, never ordered. */
  readonly story: ReadonlyArray<QuestIndexed>;
  readonly facility: Facility;
  /** The largest store of any of the facility's levels: what one collection asks for. */
  readonly largestStore: number;
}

/** A run's world: the players (in id order, agents[id - 1]) and where their actions go. */
export interface World extends Scene {
  readonly m: Master;
  readonly config: SimConfig;
  readonly seed: string;
  readonly agents: ReadonlyArray<Agent>;
  readonly ledger: Ledger;
}

/** The scene of a run; a config naming a facility or gacha the master data lacks is refused. */
export const sceneOf = (m: Master, config: SimConfig): Scene => {
  const story = [...m.quest.values()].filter((q) => q.type === 1 && !q.advOnly).sort((a, b) => a.questId - b.questId);
  const facility = m.facility.get(config.facilityId);
  if (!facility) throw new Error(`config: no facility ${config.facilityId}`);
  const largestStore = Math.max(1, ...facility.levels.map((l) => l.production?.cap ?? 0));
  for (const p of config.profiles) {
    const g = m.gacha.get(p.gachaId);
    if (!g) throw new Error(`config: profile ${p.name}: no gacha ${p.gachaId}`);
    // A re-draw gacha's further draws are free re-rolls of one result: drawing it "while affordable" would never end.
    if (g.reDraw) throw new Error(`config: profile ${p.name}: gacha ${p.gachaId} is a re-draw gacha`);
  }
  return { start: Date.parse(config.start), story, facility, largestStore };
};

/** The population: profiles by share, from the seed, each player signed up at the start. */
/** An agent with nothing played yet: a profile and a state (new, or as stored). */
export const newAgent = (id: number, profile: Agent['profile'], state: PlayerState): Agent => ({
  id,
  profile,
  state,
  questIndex: 0,
  facility: null,
  partySet: false,
  playDays: 0,
  quests: 0,
  staminaUsed: 0,
  draws: 0,
  targetDraws: 0,
  pickupAt: null,
  pickupBy: null,
  gemsEarned: 0,
  gemsOnDraws: 0,
  gemsOther: 0,
});

export const signUp = (m: Master, config: SimConfig, params: SimParams): Agent[] => {
  const { seed, players } = params;
  const start = Date.parse(config.start);
  const profilesWeighted = config.profiles.map((p, i) => ({ p, i, weight: p.share })).filter((x) => x.weight > 0);
  const popRng = rngFromSeed(`${seed}:population`);
  const agents: Agent[] = [];
  for (let id = 1; id <= players; id++) {
    const { p } = pickWeighted(popRng, profilesWeighted);
    const created = createPlayer(
      m,
      {
        playerId: id,
        uuid: `sim-${id}`,
        platform: 1,
        name: `${p.name}${id}`.slice(0, m.game.player.nameMaxLength),
        stepCode: 0,
        tokenHash: '',
      },
      rngFromSeed(`${seed}:signup:${id}`),
      start,
    );
    if (created._tag === 'Left') throw new Error(`createPlayer: ${created.left.code}`);
    agents.push(newAgent(id, p, created.right));
  }
  return agents;
};

type Operation = NonNullable<ReturnType<typeof operationByName>>;
/** Operations by name, each looked up once: a run takes hundreds of thousands of steps. */
const ops = new Map<string, Operation>();
const opOf = (name: string): Operation => {
  let op = ops.get(name);
  if (!op) {
    op = operationByName(name);
    if (!op) throw new Error(`no operation ${name}`);
    ops.set(name, op);
  }
  return op;
};

/** Runs one operation for an agent (and the players it names); a failure is counted and changes nothing. */
const step = (
  w: World,
  a: Agent,
  name: string,
  request: unknown,
  now: number,
  otherIds: ReadonlyArray<number> = [],
): Record<string, unknown> | null => {
  const others = otherIds.map((id) => w.agents[id - 1]?.state);
  const r = run(opOf(name), a.state, request, rngFromSeed(`${w.seed}:${a.id}:${a.state.version}`), now, {
    master: w.m,
    others,
  });
  if (r._tag === 'Left') {
    w.ledger.ran(name, r.left.code);
    return null;
  }
  w.ledger.ran(name, null);
  w.ledger.moved(a, name, a.state, r.right.state);
  a.state = r.right.state;
  r.right.others.forEach((o, i) => {
    const other = w.agents[(otherIds[i] ?? 0) - 1];
    if (o && other && o !== other.state && other.id !== a.id) {
      w.ledger.moved(other, name, other.state, o);
      other.state = o;
    }
  });
  return r.right.response;
};

const operatorPresent = entryByName('adminSendPresent') as NonNullable<ReturnType<typeof entryByName>>;

/** An operator's present (not counted: what it holds is, when received). */
const present = (w: World, a: Agent, grant: SimConfig['dailyGift'], title: string, now: number): void => {
  if (!grant) return;
  // As the operator API does: its table entry, run as every entry is.
  const r = execute(
    operatorPresent,
    a.state,
    { playerId: a.state.playerId, grant, title, message: '', deadline: null },
    lazyRng(() => ''),
    now,
    { master: w.m, others: [] },
  );
  if (r._tag === 'Right') a.state = r.right.state;
};

const receiveAll = (w: World, a: Agent, now: number): void => {
  const ids = a.state.presents.slice(0, w.m.game.presents.receiveMax).map((p) => p.managedPresentId);
  if (ids.length > 0) step(w, a, 'getPlayerPresent', { managedPresentId: ids.join(','), stepCode: 0 }, now);
};

const party = (w: World, a: Agent, now: number): void => {
  const first = a.state.characters[0];
  if (a.partySet || !first) return;
  const slot = (c: number | null) => ({ managedCharacterId: c, managedWeaponId: null });
  const slots = (c: number | null) => [slot(c), slot(null), slot(null), slot(null), slot(null)];
  const parties = Array.from({ length: 15 }, (_, i) => ({
    managedBattlePartyId: i + 1,
    slots: slots(i === 0 ? first.managedCharacterId : null),
  }));
  a.partySet = step(w, a, 'setAllPlayerBattleParty', { managedBattleParties: parties }, now) !== null;
};

const quests = (w: World, a: Agent, now: number): void => {
  if (!a.partySet) return;
  const { story } = w;
  for (let n = 0; n < a.profile.questsPerDay; n++) {
    const stamina = staminaNow(w.m, a.state, now);
    // The next story quest for its first-clear reward; after the story, the dearest one affordable.
    const q =
      a.questIndex < story.length ? story[a.questIndex] : [...story].reverse().find((x) => x.stamina <= stamina);
    if (!q || q.stamina > stamina) return;
    const order = step(
      w,
      a,
      'orderPlayerQuestLog',
      { type: q.type, questId: q.questId, managedBattlePartyId: 1, supportCharacterId: -1, questData: '' },
      now,
    );
    if (!order) return;
    a.staminaUsed += q.stamina;
    const done = step(
      w,
      a,
      'completePlayerQuestLog',
      {
        // As the original's clients send it: state 2 is a clear, the battle lists "id:n" strings.
        orderReceiveId: order['orderReceiveId'],
        state: 2,
        clearRank: 3,
        skillExps: '',
        dropItems: '',
        killedEnemies: '',
        weaponSkillExps: '',
        uniqueSkillUseNum: 0,
        masterSkillUseNum: 0,
        friendUseNum: 0,
        stepCode: 0,
      },
      now,
    );
    if (!done) return;
    a.quests++;
    if (a.questIndex < story.length && q.questId === story[a.questIndex]?.questId) a.questIndex++;
  }
};

const town = (w: World, a: Agent, now: number): void => {
  if (!a.profile.collectFacilities) return;
  if (a.facility === null) {
    const bought = step(
      w,
      a,
      'buyAllPlayerTownFacility',
      { facilities: [{ facilityId: w.config.facilityId, amount: 1 }] },
      now,
    );
    const id = (bought?.['managedTownFacilityIds'] as number[] | undefined)?.[0];
    if (id === undefined) return;
    a.facility = id;
    step(w, a, 'openUpPlayerTownFacility', { managedTownFacilityId: id }, now);
    return;
  }
  const f = a.state.facilities.find((x) => x.managedTownFacilityId === a.facility);
  if (!f) return;
  if (f.levelUp && f.levelUp.completesAt > now) return;
  step(
    w,
    a,
    'itemUpPlayerTownFacility',
    { managedTownFacilityId: f.managedTownFacilityId, itemNo: 0, amount: w.largestStore, actionTime: now },
    now,
  );
  if (a.profile.levelUpFacilities) levelUpFacility(w, a, now);
};

/** Levels the facility up when the coins are there and the items held (the sim does not buy items). */
const levelUpFacility = (w: World, a: Agent, now: number): void => {
  const cur = a.state.facilities.find((x) => x.managedTownFacilityId === a.facility);
  const lv = cur && w.facility.levels.find((l) => l.level === cur.level);
  const next = cur && w.facility.levels.find((l) => l.level === cur.level + 1);
  const cost = lv?.levelUp;
  if (
    cur &&
    cost &&
    next &&
    !cur.levelUp &&
    a.state.gold >= cost.gold &&
    cost.items.every((x) => itemCount(a.state, x.itemId) >= x.amount)
  ) {
    step(w, a, 'levelUpPlayerTownFacility', { managedTownFacilityId: cur.managedTownFacilityId }, now);
  }
};

const training = (w: World, a: Agent, now: number): void => {
  if (!a.profile.training) return;
  const running = a.state.trainings.find((x) => x.slotId === 1);
  if (running) {
    if (running.completesAt > now) return;
    step(w, a, 'completesPlayerTraining', { slotId: 1 }, now);
  }
  const tr = w.m.training.get(w.config.trainingId);
  const ids = a.state.characters.slice(0, tr?.characterCount ?? 1).map((c) => c.managedCharacterId);
  if (tr && ids.length === tr.characterCount && a.state.gold >= (tr.cost.gold ?? 0))
    step(w, a, 'ordersPlayerTraining', { slotId: 1, trainingId: tr.trainingId, managedCharacterIds: ids }, now);
};

/** Draws while `affordable`, each draw told to the ledger; stops at the first refused. */
const drawWhile = (
  w: World,
  a: Agent,
  gachaId: number,
  drawType: number,
  affordable: () => boolean,
  now: number,
): void => {
  while (affordable()) {
    const r = step(w, a, 'drawPlayerGacha', { gachaId, drawType, stepCode: 0, reDraw: false }, now);
    w.ledger.drew(a, gachaId, r);
    if (!r) break;
  }
};

const gacha = (w: World, a: Agent, now: number): void => {
  // Tickets first: a single draw spends the Standard Gacha's ticket when held.
  for (const g of w.m.gacha.values()) {
    const ticket = g.cost.ticketItemId;
    if (ticket === null || g.kind !== 'standard') continue;
    drawWhile(w, a, g.gachaId, 1, () => itemCount(a.state, ticket) > 0, now);
  }
  const g = w.m.gacha.get(a.profile.gachaId);
  if (!g) return;
  const gems = () => a.state.gem + a.state.paidGem;
  if (gems() >= a.profile.drawAtGems) drawWhile(w, a, g.gachaId, 3, () => gems() >= g.cost.tenGem, now);
  const target = g.targets[0];
  if (
    a.profile.exchangePoints &&
    target &&
    statOf(a.state, g.gachaId).points >= target.points &&
    !a.state.characters.some((c) => c.characterId === target.characterId)
  ) {
    if (step(w, a, 'pointToCharacterPlayerGacha', { gachaId: g.gachaId, characterId: target.characterId }, now))
      w.ledger.exchanged(a, g.gachaId, target.characterId);
  }
};

const friends = (w: World, a: Agent, rng: Rng, now: number): void => {
  for (const rel of a.state.friends.filter((x) => x.state === 'received'))
    step(w, a, 'acceptPlayerFriend', { playerId: rel.playerId }, now, [rel.playerId]);
  const players = w.agents.length;
  if (players > 1 && rng.next() < a.profile.friendRequestChance) {
    const other = 1 + rng.int(players);
    if (other !== a.id && !a.state.friends.some((x) => x.playerId === other))
      step(w, a, 'proposePlayerFriend', { playerId: other }, now, [other]);
  }
};

/** A player's day `day` (from 0): the log-in gift and, if it plays today, the day's round of actions. */
export const liveDay = (w: World, a: Agent, day: number): void => {
  const rng = rngFromSeed(`${w.seed}:day:${day}:${a.id}`);
  // Log-ins spread over four hours from the configured start time.
  const now = w.start + day * DAY + rng.int(4 * HOUR);
  present(w, a, w.config.dailyGift, w.config.dailyGiftTitle, now);
  if (rng.next() >= a.profile.playChance) return;
  w.ledger.played(a);
  if (a.profile.purchaseGemsPerDay > 0)
    present(w, a, { kind: 'paidGem', objectId: 0, amount: a.profile.purchaseGemsPerDay }, 'Purchase', now);
  receiveAll(w, a, now);
  gacha(w, a, now);
  party(w, a, now);
  training(w, a, now);
  quests(w, a, now);
  town(w, a, now);
  friends(w, a, rng, now);
  receiveAll(w, a, now);
};
