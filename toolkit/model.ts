// A model of play for properties: random valid players (Setup: wealth, characters,
// items, a kit of the materials operations spend) and random requests for every
// session operation, built from templates whose fields are re-picked by name from
// the player's state, the other player and master data (mostly valid, sometimes an
// unknown id or a zero amount), so that both successes and refusals are exercised.
import type { Master } from '../core/master/index.js';
import type { PlayerState } from '../core/state.js';
import type { World } from './world.js';
import type { OperationName } from '../core/operations/table.js';

/** A player's items as `{ "itemId": amount }`. */
export const itemsOf = (s: PlayerState): Record<string, number> =>
  Object.fromEntries(s.items.map((i) => [String(i.itemId), i.amount]));

/** Turns a list of small integers into choices; cycles when it runs out. */
export class Chooser {
  private i = 0;
  constructor(private readonly picks: ReadonlyArray<number>) {}
  int(n: number): number {
    if (n <= 0) return 0;
    const v = this.picks.length === 0 ? 0 : (this.picks[this.i++ % this.picks.length] as number);
    return v % n;
  }
  one<T>(xs: ReadonlyArray<T>): T | undefined {
    return xs[this.int(xs.length)];
  }
  chance(percent: number): boolean {
    return this.int(100) < percent;
  }
}

export interface Setup {
  readonly gold: number;
  readonly gem: number;
  readonly paidGem: number;
  readonly kirara: number;
  readonly characters: ReadonlyArray<number>;
  readonly items: ReadonlyArray<readonly [number, number]>;
  /** How many times the starter kit (materials the operations spend) the player holds: 0 exercises shortages. */
  readonly kit: number;
}

/** Materials operations of every group spend: candies, limit-break and evolution items, weapon and ability materials, the chest's cost, trade sources. */
const KIT: ReadonlyArray<readonly [number, number]> = [
  [2001, 10],
  [2003, 20],
  [101011, 2],
  [4001, 20],
  [4100, 3],
  [5001, 10],
  [10003, 30],
  [10601, 3],
  [10101, 1],
  [10201, 1],
  [10301, 20],
  [10501, 25],
  [3001, 1],
  [3002, 2],
];

/**
 * A player of the world set up from a Setup: signed up, its welcome presents received,
 * the wealth and items set, the characters granted, and (with the kit) battle party 1
 * holding its first character so quests can be ordered. Returns the player's state.
 */
export const setupPlayer = (world: World, s: Setup, playerId?: number): PlayerState => {
  const m = world.master;
  const id = world.createPlayer(playerId === undefined ? {} : { playerId }).playerId;
  world.receiveAll(id);
  const items: Record<number, number> = {};
  for (const [item, n] of KIT) if (s.kit > 0 && m.item.has(item)) items[item] = n * s.kit;
  const chestCost = m.chests[0]?.cost.itemId;
  if (s.kit > 0 && chestCost !== undefined) items[chestCost] = 30 * s.kit;
  for (const [i, n] of s.items) items[m.items[i % m.items.length]!.itemId] = Math.min(n, 200);
  // With the kit, the characters the templates name (their trees, weapons and content room exist).
  const characters = [
    ...(s.kit > 0 ? [1011, 1012, 1013] : []),
    ...s.characters.map((c) => m.characters[c % m.characters.length]!.characterId),
  ];
  world.give(id, { gold: s.gold, gem: s.gem, paidGem: s.paidGem, kirara: s.kirara, items, characters });
  const first = world.player(id).characters[0];
  if (s.kit > 0 && first) {
    const slot = (c: number | null) => ({ managedCharacterId: c, managedWeaponId: null });
    const parties = Array.from({ length: 15 }, (_, i) => ({
      managedBattlePartyId: i + 1,
      slots: [slot(i === 0 ? first.managedCharacterId : null), slot(null), slot(null), slot(null), slot(null)],
    }));
    world.run('setAllPlayerBattleParty', id, { managedBattleParties: parties });
  }
  return world.player(id);
};

/** A Setup of nothing: a fresh player with its welcome presents received. */
export const NO_SETUP: Setup = { gold: 0, gem: 0, paidGem: 0, kirara: 0, characters: [], items: [], kit: 0 };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * One request per operation (every group), the shape a client sends; fields are
 * re-picked by name. Typed by the table's names, so a new entry is a compile error
 * here until it has its template (null: an entry without a session, which the
 * harness does not run: sign-up, log-in, the move's second half, the public reads).
 */
export const TEMPLATES: { readonly [N in OperationName]: Json | null } = {
  signupPlayer: null,
  loginPlayer: null,
  setPlayerMove: null,
  // Not played: a deletion ends the player the harness plays (and needs the access token only the device holds).
  deletePlayer: null,
  getAppVersion: null,
  getAllQuestChapter: null,
  getAllNotice: null,
  drawPlayerGacha: { gachaId: 3, drawType: 1, stepCode: 0, reDraw: false },
  fixPlayerGacha: {},
  getAllPlayerGacha: {},
  getPlayerGachaBox: { gachaId: 3 },
  getHistoryPlayerGacha: { gachaId: 3, page: 1, pageSize: 5 },
  pointToCharacterPlayerGacha: { gachaId: 3, characterId: 1011 },
  getAllPlayerPresent: {},
  getPlayerPresent: { managedPresentId: '1', stepCode: 0 },
  getReceivedPlayerPresent: {},
  addPlayerTutorialStep: { stepCode: 2 },
  addPlayerTutorialTip: { tipId: 3 },
  getPlayerMove: { password: 'pass-1234' },
  evolutionPlayerCharacter: { managedCharacterId: 1 },
  limitbreakPlayerCharacter: { managedCharacterId: 1 },
  resetAllViewPlayerCharacter: {},
  setAllPlayerCharacterSupport: { supportParties: [{ name: 'Friends', managedCharacterIds: [1, 2] }] },
  setNamePlayerCharacterSupport: { supportPartyNo: 1, name: 'Helpers' },
  setShownPlayerCharacter: { managedCharacterIds: [1, 2] },
  setViewPlayerCharacter: { managedCharacterId: 1, view: 0 },
  upgradePlayerCharacter: { managedCharacterId: 1, items: [{ itemId: 2003, amount: 2 }] },
  addPlayerWeaponLimit: {},
  evolutionPlayerWeapon: { managedWeaponId: 1 },
  makePlayerWeapon: { weaponId: 103 },
  receivePlayerWeapon: { managedCharacterId: 1 },
  salePlayerWeapon: { managedWeaponIds: [1] },
  upgradePlayerWeapon: { managedWeaponId: 1, items: [{ itemId: 10003, amount: 2 }] },
  cancelPlayerTraining: { slotId: 1 },
  completesPlayerTraining: { slotId: 1 },
  getListPlayerTraining: {},
  ordersPlayerTraining: { slotId: 1, trainingId: 1, managedCharacterIds: [1] },
  equipPlayerAbility: { managedCharacterId: 1, slotNo: 1, itemId: 10201 },
  releasePlayerAbility: { managedCharacterId: 1, itemId: 10101 },
  releaseSlotPlayerAbility: { managedCharacterId: 1, slotNo: 1 },
  upgradeSpherePlayerAbility: { managedCharacterId: 1, slotNo: 1, items: [{ itemId: 10301, amount: 2 }] },
  getAllPlayerItemTradeRecipe: {},
  salePlayerItem: { itemId: 2001, amount: 1 },
  tradePlayerItemTrade: { recipeId: 4, count: 1 },
  addPlayerTownFacilityLimit: {},
  buyAllPlayerTownFacility: { facilities: [{ facilityId: 1, amount: 1 }] },
  gemLevelUpPlayerTownFacility: { managedTownFacilityId: 1 },
  itemUpPlayerTownFacility: { managedTownFacilityId: 1, itemNo: 0, amount: 100, actionTime: 0 },
  levelUpPlayerTownFacility: { managedTownFacilityId: 1 },
  openUpPlayerTownFacility: { managedTownFacilityId: 1 },
  salePlayerTownFacility: { managedTownFacilityId: 1 },
  setAllPlayerTownFacilityBuildPoint: { buildPoints: [{ buildPointId: 3, managedTownFacilityId: 1 }] },
  getAllPlayerTown: {},
  getAllPlayer: {},
  setPlayerTown: {
    contentBuildings: [{ lotId: 1, contentRoomId: 101, facilities: [{ slot: 1, managedTownFacilityId: 1 }] }],
  },
  getAllPlayerFieldPartyMember: {},
  removeAllPlayerFieldPartyMember: { managedCharacterIds: [1] },
  getAllPlayerRoom: {},
  setPlayerRoom: { floorId: 1, placements: [{ managedRoomObjectId: 1, x: 0, y: 0, dir: 0 }] },
  addPlayerRoomObjectLimit: {},
  buySetPlayerRoomObject: { roomObjectId: 2, amount: 1 },
  salePlayerRoomObject: { managedRoomObjectIds: [1] },
  getAllPlayerContentRoomMember: { contentRoomId: 101 },
  setAllPlayerContentRoomMember: { contentRoomId: 101, managedCharacterIds: [1] },
  setShownPlayerContentRoom: { contentRoomId: 101 },
  acceptPlayerFriend: { playerId: 2 },
  cancelPlayerFriend: { playerId: 2 },
  getAllPlayerFriend: {},
  searchPlayerFriend: { myCode: 'code' },
  proposePlayerFriend: { playerId: 2 },
  refusePlayerFriend: { playerId: 2 },
  terminatePlayerFriend: { playerId: 2 },
  getAllPlayerBattleParty: {},
  setAllPlayerBattleParty: { managedBattleParties: 'parties' },
  setNamePlayerBattleParty: { managedBattlePartyId: 1, name: 'Vanguard' },
  getAllPlayerAchievement: {},
  setPlayerAchievement: { achievementId: 1 },
  shownPlayerAchievement: {},
  orderPlayerQuestLog: { type: 1, questId: 1001, managedBattlePartyId: 1, supportCharacterId: -1, questData: 'start' },
  savePlayerQuestLog: {
    orderReceiveId: 1,
    questData: 'wave',
    skillExps: '',
    dropItems: '7010:1',
    killedEnemies: '',
    weaponSkillExps: '',
  },
  retryPlayerQuestLog: { orderReceiveId: 1 },
  completePlayerQuestLog: {
    orderReceiveId: 1,
    state: 2,
    clearRank: 2,
    skillExps: '1:1',
    dropItems: '7010:99',
    killedEnemies: '',
    weaponSkillExps: '',
    uniqueSkillUseNum: 0,
    masterSkillUseNum: 0,
    friendUseNum: 0,
    stepCode: 0,
  },
  resetPlayerQuestLog: {},
  drawPlayerChest: { chestId: 1, count: 1 },
  getAllPlayerChest: {},
  getStepPlayerChest: { chestId: 1 },
  resetPlayerChest: { chestId: 1 },
  completePlayerOffer: { offerId: 2 },
  getAllPlayerOffer: {},
  orderPlayerOffer: { offerId: 2 },
  getAllPlayerQuest: {},
  addPlayerAdv: { advId: '1000000', stepCode: 0 },
  getAllPlayerMission: {},
  completePlayerMission: { managedMissionId: 2_020_778 },
  setPlayerMission: { managedMissionId: 2_020_778, rate: 1 },
  addPlayerStamina: { type: 1, num: 1, itemId: -1 },
  setPlayerAge: { age: 2 },
  setPlayerTutorialParty: { stepCode: 5 },
};

const BOGUS = 987_654;

/** The template of an operation by any name (undefined: no such operation). */
export const templateOf = (name: string): Json | null | undefined => {
  const byName: Readonly<Partial<Record<string, Json | null>>> = TEMPLATES;
  return byName[name];
};

/** Builds a request from its template: every known field re-picked from the state, the other player and master data. */
export const buildRequest = (
  name: string,
  s: PlayerState,
  other: PlayerState,
  c: Chooser,
  now: number,
  m: Master,
): unknown => {
  const owned = {
    managedCharacterId: s.characters.map((x) => x.managedCharacterId),
    managedWeaponId: s.weapons.map((x) => x.managedWeaponId),
    managedTownFacilityId: s.facilities.map((x) => x.managedTownFacilityId),
    managedRoomObjectId: s.roomObjects.map((x) => x.managedRoomObjectId),
    managedPresentId: s.presents.map((x) => x.managedPresentId),
  };
  // Mostly an owned id, often the oldest (so steps build on each other); sometimes an unknown one.
  const id = (xs: ReadonlyArray<number>): number =>
    xs.length === 0 || c.chance(8) ? BOGUS : c.chance(30) ? (xs[0] as number) : (c.one(xs) as number);
  const ids = (xs: ReadonlyArray<number>): number[] => {
    const n = c.int(4);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(id(xs));
    return c.chance(80) ? [...new Set(out)] : out;
  };
  const masterIds = {
    itemId: [...new Set([...Object.keys(itemsOf(s)).map(Number), ...m.items.map((x) => x.itemId)])],
    gachaId: m.gachas.map((x) => x.gachaId),
    characterId: m.characters.map((x) => x.characterId),
    weaponId: m.weapons.map((x) => x.weaponId),
    facilityId: m.facilities.map((x) => x.facilityId),
    trainingId: m.trainings.map((x) => x.trainingId),
    recipeId: m.tradeRecipes.map((x) => x.recipeId),
    roomObjectId: m.roomObjects.map((x) => x.roomObjectId),
    contentRoomId: m.contentRooms.map((x) => x.contentRoomId),
    questId: m.quests.map((x) => x.questId),
    chestId: m.chests.map((x) => x.chestId),
    offerId: m.offers.map((x) => x.offerId),
    achievementId: [...s.achievements.map((x) => x.achievementId), 1],
  } as Record<string, number[]>;
  // Held items first: they are the ones an operation can actually spend.
  const held = Object.keys(itemsOf(s)).map(Number);
  const pick = (key: string, v: Json): Json => {
    if (key in owned) return id(owned[key as keyof typeof owned]);
    // The template's own id is one that works for its operation: kept a third of the time.
    if ((key === 'itemId' || key in masterIds) && typeof v === 'number' && c.chance(35)) return v;
    if (key === 'itemId')
      return held.length > 0 && c.chance(70) ? (c.one(held) as number) : (c.one(masterIds['itemId']!) as number);
    if (key in masterIds) return c.chance(5) ? BOGUS : (c.one(masterIds[key]!) ?? BOGUS);
    switch (key) {
      case 'amount':
      case 'count':
        return c.chance(5) ? 0 : 1 + c.int(c.chance(20) ? 30 : 3);
      case 'drawType':
        return c.one([1, 3]) as number;
      case 'reDraw':
        return c.chance(30);
      case 'slotId':
      case 'slotNo':
      case 'supportPartyNo':
      case 'managedBattlePartyId':
        return 1 + c.int(3);
      case 'view':
        return c.int(2);
      case 'playerId':
        return c.chance(90) ? other.playerId : BOGUS;
      case 'myCode':
        return c.chance(80) ? other.myCode : c.chance(50) ? s.myCode : 'NOSUCHCODE';
      case 'orderReceiveId':
        return s.activeQuest && c.chance(85) ? s.activeQuest.orderReceiveId : BOGUS;
      case 'actionTime':
        return now;
      case 'clearRank':
        return 1 + c.int(3);
      // 2 is a clear (the original's value), 1 a failure.
      case 'state':
        return c.chance(85) ? 2 : 1;
      case 'stepCode':
        return name === 'addPlayerTutorialStep' ? (c.one([1, 2, 3, 5, -1]) as number) : 0;
      case 'tipId':
        return 1 + c.int(5);
      case 'x':
      case 'y':
        return c.int(8);
      case 'dir':
        return c.int(2);
      case 'floorId':
        return 1;
      case 'buildPointId':
        return 1 + c.int(6);
      default:
        return v;
    }
  };
  const walk = (v: Json, key: string): Json => {
    if (key === 'managedBattleParties') {
      const slot = () => ({
        managedCharacterId: c.chance(50) ? id(owned.managedCharacterId) : null,
        managedWeaponId: c.chance(20) ? id(owned.managedWeaponId) : null,
      });
      return Array.from({ length: 15 }, (_, i) => ({
        managedBattlePartyId: i + 1,
        slots: [slot(), slot(), slot(), slot(), slot()],
      }));
    }
    if (key.endsWith('Ids') && Array.isArray(v)) {
      const k = key.slice(0, -1);
      return k in owned ? ids(owned[k as keyof typeof owned]) : v;
    }
    if (key === 'managedPresentId') {
      const list = ids(owned.managedPresentId);
      return (list.length > 0 ? list : [id(owned.managedPresentId)]).join(',');
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return pick(key, v);
  };
  return walk(templateOf(name) ?? {}, '');
};

/** Every managed id a state holds, as kind:id. */
export const managedIds = (s: PlayerState): string[] => [
  ...s.characters.map((x) => `c:${x.managedCharacterId}`),
  ...s.weapons.map((x) => `w:${x.managedWeaponId}`),
  ...s.facilities.map((x) => `f:${x.managedTownFacilityId}`),
  ...s.roomObjects.map((x) => `r:${x.managedRoomObjectId}`),
  ...s.presents.map((x) => `p:${x.managedPresentId}`),
];
