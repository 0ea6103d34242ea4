// The replay log: a recorded HTTP session that uses every operation group is
// replayed through the reducers and gives the stored states back byte for byte;
// a tampered entry is reported where it is; the CLI does the same on a data dir.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grant, receiveAllHttp, relogin, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { runReplay } from '../_support/replay-cli.js';
import { master } from '../_support/core.js';
import { replayLog, replayPlayer } from '../../adapters/service/replay.js';
import { masterHashOf, writeMasterSnapshot } from '../../adapters/master/load.js';
import { FileStorage } from '../../adapters/storage/file.js';
import type { LogEntry, StoredLogEntry } from '../../adapters/storage/replay-log.js';
import { operationByName, OPERATIONS } from '../../core/operations/table.js';
import { HOUR, MINUTE } from '../../core/time.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;
type Body = Record<string, unknown>;

/** The groups issue 6 names; the session must change state in each. */
const GROUPS = [
  'gacha',
  'present',
  'move',
  'tutorial',
  'character',
  'weapon',
  'ability',
  'training',
  'item',
  'townFacility',
  'town',
  'fieldParty',
  'room',
  'roomObject',
  'contentRoom',
  'friend',
  'battleParty',
  'achievement',
  'questLog',
  'chest',
  'offer',
];

/**
 * Plays a session over HTTP with two players touching every group. Returns the
 * players' ids. Each call must succeed; the clock moves and players log in again.
 */
const playSession = async (t: ExecutionContext, h: Harness): Promise<number[]> => {
  let a = await signupLogin(h);
  let b = await signupLogin(h);
  const must = async (c: Client, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Body> => {
    const r = method === 'GET' ? await c.get(path) : await c.post(path, body);
    t.is(r.body['resultCode'], 0, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  };
  const wait = async (ms: number) => {
    h.clock.now += ms;
    a = await relogin(h, a);
    b = await relogin(h, b);
  };

  // Presents, tutorial, gacha, achievements.
  const give: Array<[string, number, number]> = [
    ['character', 1011, 1],
    ['character', 1012, 1],
    ['character', 1013, 1],
    ['gold', 0, 5_000_000],
    ['gem', 0, 20_000],
    ['item', 2003, 20],
    ['item', 101011, 1],
    ['item', 10003, 30],
    ['item', 2001, 10],
    ['item', 10501, 25],
    ['item', 5001, 5],
    ['item', 10101, 1],
    ['item', 10201, 1],
    ['item', 10301, 30],
    ['item', master().chest.get(1)!.cost.itemId, 20],
  ];
  for (const [kind, id, amount] of give) await grant(h, a.playerId, kind, id, amount);
  t.is((await receiveAllHttp(a)).body['resultCode'], 0);
  t.is((await receiveAllHttp(b)).body['resultCode'], 0);
  await must(a, 'POST', '/api/player/tutorial/step/add', { stepCode: 2 });
  await must(a, 'POST', '/api/player/tutorial/tip/add', { tipId: 3 });
  await must(a, 'POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 3, stepCode: 0, reDraw: false });
  await must(a, 'POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true });
  await must(a, 'POST', '/api/player/gacha/fix', {});
  const achievements = await must(a, 'GET', '/api/player/achievement/get_all');
  const first = (achievements['achievements'] as Array<{ achievementId: number }>)[0]!.achievementId;
  await must(a, 'POST', '/api/player/achievement/set', { achievementId: first });
  await must(a, 'POST', '/api/player/achievement/shown', {});

  // Characters, weapons, abilities, items.
  const chars = (await must(a, 'GET', '/api/player/get_all'))['managedCharacters'] as Array<{
    managedCharacterId: number;
    characterId: number;
  }>;
  const mc = (cid: number) => chars.find((c) => c.characterId === cid)!.managedCharacterId;
  const [c1, c2, c3] = [mc(1011), mc(1012), mc(1013)];
  await must(a, 'POST', '/api/player/character/upgrade', {
    managedCharacterId: c1,
    items: [{ itemId: 2003, amount: 10 }],
  });
  await must(a, 'POST', '/api/player/character/limitBreak', { managedCharacterId: c1 });
  await must(a, 'POST', '/api/player/character/set_shown', { managedCharacterIds: [c1, c2] });
  await must(a, 'POST', '/api/player/character/support/set_all', {
    supportParties: [{ name: 'Friends', managedCharacterIds: [c1, c2] }],
  });
  await must(a, 'POST', '/api/player/weapon/limit/add', {});
  const made = await must(a, 'POST', '/api/player/weapon/make', { weaponId: 103 });
  await must(a, 'POST', '/api/player/weapon/upgrade', {
    managedWeaponId: (made['managedWeapon'] as { managedWeaponId: number }).managedWeaponId,
    items: [{ itemId: 10003, amount: 10 }],
  });
  await must(a, 'POST', '/api/player/ability/release', { managedCharacterId: c1, itemId: 10101 });
  await must(a, 'POST', '/api/player/ability/release_slot', { managedCharacterId: c1, slotNo: 1 });
  await must(a, 'POST', '/api/player/ability/equip', { managedCharacterId: c1, slotNo: 1, itemId: 10201 });
  await must(a, 'POST', '/api/player/ability/upgrade_sphere', {
    managedCharacterId: c1,
    slotNo: 1,
    items: [{ itemId: 10301, amount: 10 }],
  });
  await must(a, 'POST', '/api/player/item/sale', { itemId: 2001, amount: 4 });
  await must(a, 'POST', '/api/player/item/trade/trade', { recipeId: 4, count: 2 });

  // Town, facilities, rooms, content rooms, the field party.
  const bought = await must(a, 'POST', '/api/player/town_facility/buy_all', {
    facilities: [{ facilityId: 1, amount: 3 }],
  });
  const [f1, f2, f3] = bought['managedTownFacilityIds'] as [number, number, number];
  await must(a, 'POST', '/api/player/town_facility/open_up', { managedTownFacilityId: f1 });
  await must(a, 'POST', '/api/player/town_facility/level_up', { managedTownFacilityId: f1 });
  await must(a, 'POST', '/api/player/town_facility/gem_level_up', { managedTownFacilityId: f1 });
  await must(a, 'POST', '/api/player/town_facility/build_point/set_all', {
    buildPoints: [{ buildPointId: 3, managedTownFacilityId: f1 }],
  });
  await must(a, 'POST', '/api/player/town_facility/sale', { managedTownFacilityId: f3 });
  await must(a, 'POST', '/api/player/content_room/set_shown', { contentRoomId: 101 });
  await must(a, 'POST', '/api/player/content_room/member/set_all', {
    contentRoomId: 101,
    managedCharacterIds: [c1, c2, c3],
  });
  await must(a, 'POST', '/api/player/town/set', {
    contentBuildings: [{ lotId: 1, contentRoomId: 101, facilities: [{ slot: 1, managedTownFacilityId: f2 }] }],
  });
  await must(a, 'POST', '/api/player/field_party/member/remove_all', { managedCharacterIds: [c3] });
  const tables = await must(a, 'POST', '/api/player/room_object/buy_set', {
    roomObjectId: 2,
    amount: 2,
    floorId: 1,
    placements: [{ x: 0, y: 0, dir: 0 }],
  });
  const [t1, t2] = tables['managedRoomObjectIds'] as [number, number];
  await must(a, 'POST', '/api/player/room/set', {
    floorId: 1,
    placements: [
      { managedRoomObjectId: t1, x: 0, y: 0, dir: 0 },
      { managedRoomObjectId: t2, x: 2, y: 0, dir: 0 },
    ],
  });
  await must(a, 'POST', '/api/player/room_object/limit/add', {});
  await must(a, 'POST', '/api/player/room_object/sale', { managedRoomObjectIds: [t2] });

  // Friends: both players change in one commit.
  await must(a, 'POST', '/api/player/friend/propose', { playerId: b.playerId });
  await must(b, 'POST', '/api/player/friend/accept', { playerId: a.playerId });
  await must(a, 'POST', '/api/player/friend/terminate', { playerId: b.playerId });
  await must(b, 'POST', '/api/player/friend/propose', { playerId: a.playerId });

  // Battle parties, a quest, a chest, an offer and a training.
  const slots = (first: number | null) => [
    { managedCharacterId: first, managedWeaponId: null },
    ...Array.from({ length: 4 }, () => ({ managedCharacterId: null, managedWeaponId: null })),
  ];
  await must(a, 'POST', '/api/player/battle_party/set_all', {
    managedBattleParties: Array.from({ length: 15 }, (_, i) => ({
      managedBattlePartyId: i + 1,
      slots: slots(i === 0 ? c1 : null),
    })),
  });
  await must(a, 'POST', '/api/player/battle_party/set_name', { managedBattlePartyId: 1, name: 'Vanguard' });
  const order = await must(a, 'POST', '/api/player/quest_log/order', {
    type: 1,
    questId: 1001,
    managedBattlePartyId: 1,
    supportCharacterId: 0,
    questData: 'start',
  });
  const orderReceiveId = order['orderReceiveId'] as number;
  await must(a, 'POST', '/api/player/quest_log/save', { orderReceiveId, questData: 'wave-1' });
  await must(a, 'POST', '/api/player/quest_log/retry', { orderReceiveId });
  await must(a, 'POST', '/api/player/quest_log/complete', {
    orderReceiveId,
    state: 2,
    clearRank: 2,
    skillExps: '11:3,12:1',
    dropItems: '',
    killedEnemies: '',
    weaponSkillExps: '',
    uniqueSkillUseNum: 1,
    masterSkillUseNum: 0,
    friendUseNum: 0,
    stepCode: 0,
  });
  await must(a, 'POST', '/api/player/chest/draw', { chestId: 1, count: 3 });
  await must(a, 'POST', '/api/player/offer/order', { offerId: 2 });
  await must(a, 'POST', '/api/player/training/orders', { slotId: 1, trainingId: 1, managedCharacterIds: [c2] });
  await wait(4 * HOUR);
  await must(a, 'POST', '/api/player/offer/complete', { offerId: 2 });
  await must(a, 'POST', '/api/player/training/completes', { slotId: 1 });
  await must(a, 'POST', '/api/player/town_facility/item_up', {
    managedTownFacilityId: f1,
    itemNo: 0,
    amount: 1000,
    actionTime: h.clock.now,
  });

  // A move: a wrong password (kept: it counts), then the right one on a new device.
  const mv = await must(a, 'POST', '/api/player/move/get', { password: 'pass-1234' });
  h.clock.now += MINUTE;
  const wrong = await h.call('POST', '/api/player/move/set', {
    moveCode: mv['moveCode'],
    movePassword: 'wrong-999',
    uuid: '0c0c0c0c-1111-4222-8333-444444444444',
    platform: 2,
  });
  t.is(wrong.body['resultCode'], 210);
  const moved = await h.call('POST', '/api/player/move/set', {
    moveCode: mv['moveCode'],
    movePassword: 'pass-1234',
    uuid: '0c0c0c0c-1111-4222-8333-444444444444',
    platform: 2,
  });
  t.is(moved.body['resultCode'], 0);
  return [a.playerId, b.playerId];
};

const groupsIn = (log: ReadonlyArray<StoredLogEntry>): Set<string> =>
  new Set(log.flatMap((e) => (e.kind === 'op' ? [operationByName(e.op)?.group ?? '?'] : [])));
const runs = (log: ReadonlyArray<StoredLogEntry>, op: string): StoredLogEntry[] =>
  log.filter((e) => e.kind === 'op' && e.op === op);

test('a recorded session of every operation group replays to the stored states byte for byte', async (t) => {
  const h = await startHarness({ tokenSeed: 'replay' });
  t.teardown(() => h.close());
  const ids = await playSession(t, h);
  const log = await h.storage.readLog();
  t.deepEqual(
    log.map((e) => e.seq),
    log.map((_, i) => i + 1),
    'entries are numbered in commit order',
  );
  const groups = groupsIn(log);
  for (const g of GROUPS) t.true(groups.has(g), `the session changed state in group ${g}`);
  t.true(OPERATIONS.length > 0);
  t.true(
    log.some((e) => e.kind === 'op' && e.playerIds.length === 2),
    'a friend operation changed two players in one entry',
  );
  t.true(
    log.every((e) => e.kind === 'op'),
    "one kind of entry: sign-up, log-in, the move and the operator's present are table entries too",
  );
  t.true(
    runs(log, 'adminSendPresent').length > 0 &&
      runs(log, 'signupPlayer').length > 0 &&
      runs(log, 'loginPlayer').length > 0,
  );
  t.is(runs(log, 'setPlayerMove').length, 2, 'the failed try is logged too');
  t.is(JSON.stringify(log).includes('pass-1234'), false, 'no password in the log');

  const hash = masterHashOf(master());
  t.truthy(hash);
  t.true(log.every((e) => e.masterHash === hash));
  const masterFor = (hx: string) => {
    if (hx !== hash) throw new Error(`unknown master ${hx}`);
    return master();
  };
  const out = replayLog(log, masterFor);
  t.deepEqual(out.differences, []);
  for (const id of ids) {
    const stored = await h.storage.load(id);
    t.is(
      JSON.stringify(out.states.get(id)),
      JSON.stringify(stored),
      `player ${id} rebuilt byte for byte (the same key order, too)`,
    );
    t.like(replayPlayer(log, masterFor, id, stored), { identical: true, firstDifference: null, storedMatches: true });
  }
});

test('a tampered entry is reported at that entry, and only from there on', async (t) => {
  const h = await startHarness({ tokenSeed: 'tamper' });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  for (let i = 0; i < 3; i++)
    t.is(
      (await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 1, stepCode: 0, reDraw: false })).body[
        'resultCode'
      ],
      0,
    );
  const log = await h.storage.readLog();
  const draws = log.filter((e) => e.kind === 'op' && e.op === 'drawPlayerGacha');
  t.is(draws.length, 3);
  const target = draws[1]!;
  // Another seed: the same request draws differently.
  const tampered = log.map((e) => (e === target && e.kind === 'op' ? { ...e, seed: `${e.seed}x` } : e));
  const stored = await h.storage.load(c.playerId);
  const r = replayPlayer(tampered, () => master(), c.playerId, stored);
  t.false(r.identical);
  t.false(r.storedMatches);
  t.like(r.firstDifference, { seq: target.seq, kind: 'op', op: 'drawPlayerGacha', playerId: c.playerId });
  t.true(replayPlayer(log, () => master(), c.playerId, stored).identical, 'the untampered log replays');
  // A recorded hash that does not match is a difference too.
  const badHash = log.map((e) =>
    e === target ? { ...e, results: e.results.map((x) => ({ ...x, stateHash: '0'.repeat(64) })) } : e,
  );
  t.like(replayPlayer(badHash, () => master(), c.playerId, stored).firstDifference, {
    seq: target.seq,
    reason: 'the resulting state differs (stateHash)',
  });
});

const replayOf = (dir: string, playerId: number) => runReplay(['--player', String(playerId), '--data', dir]);

test('npm run replay on a file data dir: the log survives checkpoints and a reopen; byte-identical, then a tampered oplog line exits 1 naming it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-replay-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A tiny checkpoint threshold: the journal is emptied many times during the session.
  // A cache of one: players are read back from their snapshots (decoded) between operations.
  const storage = await FileStorage.open({ dir, checkpointBytes: 64 * 1024, cacheSize: 1 });
  writeMasterSnapshot(dir, master());
  const h = await startHarness({ storage, tokenSeed: 'replay-file' });
  const [a] = await playSession(t, h);
  const before = await storage.readLog();
  await h.close();
  await storage.close();
  const reopened = await FileStorage.open({ dir });
  t.deepEqual(await reopened.readLog(), before, 'the log reads back the same after a reopen');
  await reopened.close();

  const good = await replayOf(dir, a!);
  t.is(good.code, 0, good.out);
  t.regex(good.out, /byte-identical/);

  const lines = readFileSync(join(dir, 'oplog.jsonl'), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes('"op":"upgradePlayerCharacter"'));
  t.true(i >= 0);
  const e = JSON.parse(lines[i]!) as LogEntry & { request: { items: Array<{ itemId: number; amount: number }> } };
  lines[i] = JSON.stringify({ ...e, request: { ...e.request, items: [{ itemId: 2003, amount: 9 }] } });
  writeFileSync(join(dir, 'oplog.jsonl'), lines.join('\n'));
  const bad = await replayOf(dir, a!);
  t.is(bad.code, 1, bad.out);
  t.regex(bad.out, new RegExp(`first difference at log entry ${e.seq} \\(op upgradePlayerCharacter\\)`));
});
