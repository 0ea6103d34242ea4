// Older logs still replay: test/fixtures/journal-v1 is a data directory written by
// the code before issue 16 (its README says how), whose journal and oplog hold the
// old entry kinds (signup, login, moveSet, admin.present, and an op with a move
// password's hash beside the request). Its master snapshot, of an older shape,
// loads with what came later at its defaults; today's storage reads its bytes to
// the same states; today's replay reads every old entry as the entry it is now and
// runs it with `execute` (today's rules) to the state the journal recorded after
// it, and the whole log to the stored states byte for byte; and today's service
// goes on writing to the directory. test/fixtures/journal-v1-redraw, written by the
// same code, crosses a rule changed since (issue 21's tutorial draw): its replay
// reports the entry and the path where the states part.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { masterHashOf, readMasterSnapshot } from '../../adapters/master/load.js';
import { readEntry, recordedInJournal, replayLog, replayPlayer } from '../../adapters/service/replay.js';
import { GameService } from '../../adapters/service/service.js';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { applyDelta, parseJournal } from '../../adapters/storage/journal.js';
import { fillMasterDefaults, ORIGINAL_DEFAULT } from '../../core/master/defaults.js';
import { operationByName } from '../../core/operations/table.js';
import { decodeState, groupDefaults, type PlayerState } from '../../core/state.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/journal-v1/', import.meta.url));
const CROSSING = fileURLToPath(new URL('../fixtures/journal-v1-redraw/', import.meta.url));
const MASTER_HASH = '0d64b004b14623808a1dc9eddc1ec2deba56974f7b80a0ae43cde9a4468b4dba';
const PLAYERS = [1, 2];
const OLD_KINDS = ['admin.present', 'login', 'moveSet', 'signup'];

const copyOfFixture = (t: import('ava').ExecutionContext, from = FIXTURE): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-v1-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(from, dir, { recursive: true });
  return dir;
};

/** The master data the fixtures' entries ran with: journal-v1's snapshot (journal-v1-redraw ran with the same). */
const masterOf = (dir = FIXTURE) => readMasterSnapshot(dir, MASTER_HASH);

test('the master data the v1 entries ran with loads from its snapshot, what came later at its defaults', (t) => {
  const m = masterOf();
  t.is(masterHashOf(m), MASTER_HASH, 'the hash covers the files as read, not as filled');
  const raw = JSON.parse(readFileSync(join(FIXTURE, 'master', `${MASTER_HASH}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  t.deepEqual(
    fillMasterDefaults(raw).filled.map((f) => `${f.file}: ${f.field} = ${f.how}`),
    [
      'original.json: (file) = its default',
      'missions.json: (file) = an empty list',
      'questChapters.json: (file) = an empty list',
      'advScenes.json: (file) = an empty list',
      'loginBonus.json: (file) = its default',
      'game.json: tutorial.lastStep = tutorial.maxStep',
      'game.json: move.restMinutes = 15',
      'game.json: presents.boxMax = 1000',
      'game.json: move.movedFromKeep = 10',
      'game.json: gacha.historyMax = 3000',
      'quests.json: *.advOnly = false',
    ],
  );
  t.is(m.game.tutorial.lastStep, 999, 'the old highest step');
  t.false('maxStep' in m.game.tutorial);
  t.is(m.game.move.restMinutes, 15);
  t.true(m.quests.length > 0 && m.quests.every((q) => q.advOnly === false));
  t.deepEqual([m.missions, m.questChapters, m.advScenes], [[], [], []]);
  t.deepEqual(m.original, ORIGINAL_DEFAULT);
});

test('the v1 journal reads back to the states the v1 code stored (fields added since at their defaults)', async (t) => {
  const dir = copyOfFixture(t);
  const storage = await FileStorage.open({ dir });
  t.teardown(() => storage.close());
  for (const id of PLAYERS) {
    const expected = JSON.parse(readFileSync(join(dir, `expected-player-${id}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    const loaded = { ...(await storage.load(id)) } as Record<string, unknown>;
    const added = Object.keys(loaded).filter((k) => !(k in expected));
    t.deepEqual(
      Object.fromEntries(added.map((k) => [k, loaded[k]])),
      Object.fromEntries(added.map((k) => [k, (groupDefaults as Record<string, unknown>)[k]])),
      `player ${id}: fields added since v1 hold their defaults`,
    );
    for (const k of added) delete loaded[k];
    t.is(canonicalJson(loaded), canonicalJson(expected), `player ${id}`);
  }
});

test("every entry of an old kind, read as today's and run by execute on the state the journal held before it, makes the state it recorded", async (t) => {
  const dir = copyOfFixture(t);
  const { records } = parseJournal(readFileSync(join(dir, 'journal.log')));
  const m = masterOf(dir);
  // The states as the v1 journal recorded them, record by record.
  const states = new Map<number, PlayerState>();
  let checked = 0;
  for (const r of records) {
    const before = new Map(states);
    for (const p of r.players) {
      const d = decodeState(p);
      if (d._tag === 'Right') states.set(d.right.playerId, d.right);
    }
    for (const d of r.deltas ?? [])
      states.set(d.playerId, applyDelta(states.get(d.playerId)!, d, `journal record ${r.seq}`));
    for (const e of r.log ?? []) {
      const legacy = OLD_KINDS.includes(e.kind) || (e.kind === 'op' && e.movePasswordHash !== undefined);
      if (!legacy) continue;
      const read = readEntry(e, (id) => before.get(id));
      t.is(read.kind, 'op');
      t.false(JSON.stringify(read).includes('pass-1234'), 'no password');
      const out = replayLog([e], () => m, before);
      t.deepEqual(out.differences, [], `entry ${e.seq} (${e.kind} as ${read.op})`);
      for (const id of e.playerIds)
        t.is(
          canonicalJson(out.states.get(id)),
          canonicalJson(states.get(id)),
          `entry ${e.seq}: player ${id} as the journal recorded it`,
        );
      checked++;
    }
  }
  t.is(
    checked,
    12,
    'two sign-ups, four log-ins, two moves (one a failed try), three operator presents and the move code',
  );
});

test("old logs replay to the same states: the whole v1 log, from nothing, with today's rules, gives the stored states byte for byte", async (t) => {
  const dir = copyOfFixture(t);
  const storage = await FileStorage.open({ dir });
  t.teardown(() => storage.close());
  const log = await storage.readLog();
  t.deepEqual(
    [...new Set(log.map((e) => e.kind))].sort(),
    ['admin.present', 'login', 'moveSet', 'op', 'signup'],
    'every old kind and the ordinary one',
  );
  const m = masterOf(dir);
  const out = replayLog(log, () => m);
  t.is(out.entries, 19);
  t.deepEqual(out.differences, []);
  for (const id of PLAYERS) {
    const stored = await storage.load(id);
    t.is(canonicalJson(out.states.get(id)), canonicalJson(stored), `player ${id}`);
    t.like(
      replayPlayer(log, () => m, id, stored),
      { identical: true, firstDifference: null, storedDifference: null },
    );
  }
});

test('a log crossing a rule change reports its first divergent entry and the path where the states part', async (t) => {
  // journal-v1-redraw drew the re-draw gacha with reDraw false at entry 10: the old code held
  // the result pending; today's keeps it at once (issue 21), replaceable until the next
  // change (issue 33). Entries 1 to 9 replay as they ran.
  const dir = copyOfFixture(t, CROSSING);
  const recorded = recordedInJournal(parseJournal(readFileSync(join(dir, 'journal.log'))).records);
  const storage = await FileStorage.open({ dir });
  t.teardown(() => storage.close());
  const log = await storage.readLog();
  const m = masterOf();
  const out = replayLog(log, () => m, new Map(), { recorded });
  t.true(out.differences.length > 0);
  t.true(
    out.differences.every((d) => d.playerId === 1 && (d.seq ?? 0) >= 10),
    'nothing before the entry, nothing of the other player',
  );
  const r = replayPlayer(log, () => m, 1, await storage.load(1), { recorded });
  t.false(r.identical);
  t.like(r.firstDifference, {
    seq: 10,
    kind: 'op',
    op: 'drawPlayerGacha',
    playerId: 1,
    reason: 'the resulting state differs (stateHash)',
    // The characters kept at once unlock an achievement: the first path in canonical order.
    path: 'achievements.3',
    recorded: 'absent',
  });
  t.regex(r.firstDifference?.replayed ?? '', /"achievementId":5/);
  t.true(
    ['characters', 'gachaHistory', 'gachaStats'].every((f) => r.firstDifference?.fields?.includes(f)),
    JSON.stringify(r.firstDifference?.fields),
  );
  t.like(r.storedDifference, { path: 'achievements.3.achievementId' });
  t.true(
    replayPlayer(log, () => m, 2, await storage.load(2), { recorded }).identical,
    'the other player is untouched by the change',
  );
  // Without the journal's states (a log alone) the entry is still named, without a path.
  t.like(replayPlayer(log, () => m, 1, await storage.load(1)).firstDifference, {
    seq: 10,
    op: 'drawPlayerGacha',
    path: undefined,
  });
});

test("today's code goes on writing to a v1 data directory: its entries replay on the states as stored", async (t) => {
  const dir = copyOfFixture(t);
  const storage = await FileStorage.open({ dir });
  t.teardown(() => storage.close());
  const m = masterOf(dir);
  const stored = new Map<number, PlayerState>();
  for (const id of PLAYERS) stored.set(id, (await storage.load(id))!);
  let tokens = 0;
  const service = new GameService({
    storage,
    master: m,
    masterHash: MASTER_HASH,
    clock: () => 1_795_240_000_000,
    seedSecret: 'test-seed-secret',
    newToken: () => `00000000-0000-4000-8000-${String(++tokens).padStart(12, '0')}`,
    sessionIdleMs: 3_600_000,
  });
  const op = (name: string) => operationByName(name)!;
  // Only hashes of the v1 players' tokens are stored: a new player signs up to log in.
  const uuid = '0d0d0d0d-0000-4000-8000-000000000003';
  const su = await service.run(op('signupPlayer'), service.context(), { uuid, platform: 1, name: 'New' });
  const token = su._tag === 'Right' ? (su.right['accessToken'] as string) : '';
  const li = await service.run(op('loginPlayer'), service.context(), { uuid, accessToken: token });
  const session = li._tag === 'Right' ? (li.right['sessionId'] as string) : '';
  t.truthy(token && session, JSON.stringify([su, li]));
  const proposed = await service.run(op('proposePlayerFriend'), service.context({ session }), { playerId: 1 });
  t.is(proposed._tag, 'Right', JSON.stringify(proposed));
  t.is(
    (
      await service.operator.sendPresents(
        2,
        { kind: 'gold', objectId: 0, amount: 5 },
        { title: 'Again', message: '', deadline: null },
      )
    )._tag,
    'Right',
  );

  const log = await storage.readLog();
  t.deepEqual(
    log.slice(0, 19).map((e) => e.seq),
    Array.from({ length: 19 }, (_, i) => i + 1),
    'the v1 entries first',
  );
  const added = log.slice(19);
  t.true(added.length === 4 && added.every((e) => e.kind === 'op'), 'then four entries of the one kind');
  t.false(
    JSON.stringify(log).includes(token) || JSON.stringify(log).includes(session),
    'no token or session id in the log',
  );
  const out = replayLog(added, () => m, stored);
  t.deepEqual(out.differences, []);
  for (const id of [...PLAYERS, 3])
    t.is(canonicalJson(out.states.get(id)), canonicalJson(await storage.load(id)), `player ${id}`);
});

test('npm run replay reads a v1 directory as files (journals of whole states, no oplog index): each player byte-identical, the directory as it was', async (t) => {
  const dir = copyOfFixture(t);
  const before = readdirSync(dir).map((f) => `${f} ${statSync(join(dir, f)).mtimeMs}`);
  const root = fileURLToPath(new URL('../../', import.meta.url));
  for (const id of PLAYERS) {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/replay.ts', '--player', String(id), '--data', dir],
      { cwd: root, encoding: 'utf8' },
    );
    t.is(r.status, 0, r.stdout + r.stderr);
    t.regex(r.stdout, new RegExp(`player ${id}: byte-identical to the stored state`));
  }
  t.deepEqual(
    readdirSync(dir).map((f) => `${f} ${statSync(join(dir, f)).mtimeMs}`),
    before,
    'no index made, no file written',
  );
  for (const f of ['journal.log', 'oplog.jsonl'])
    t.deepEqual(readFileSync(join(dir, f)), readFileSync(join(FIXTURE, f)), f);
});
