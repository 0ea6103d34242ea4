// What only the JSON-file adapter promises: durability across restarts and
// crashes, torn-record recovery, checkpoints, lazy loading and disk faults.
import test from 'ava';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import { parseJournal } from '../../adapters/storage/journal.js';
import { StorageError } from '../../adapters/storage/storage.js';
import { freshPlayer, ok, receiveAll } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import { canonicalJson, stateHash } from '../../adapters/storage/canonical.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import { crc32 } from '../../adapters/storage/crc32.js';
import { unseal } from '../../adapters/storage/sealed.js';
import { characters } from '../_support/list-edits.js';

const dirFor = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-file-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });
/** Opens the store in `dir` again, as after a crash, and checks it holds `expected` for its player. */
const replaysTo = async (t: import('ava').ExecutionContext, dir: string, expected: PlayerState): Promise<void> => {
  const b = await FileStorage.open({ dir });
  t.is(canonicalJson(await b.load(expected.playerId)), canonicalJson(expected));
  await b.close();
};

test('a reopened store has every commit, after a clean close', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  await a.commit({
    players: [{ state: player(1), expectedVersion: null }],
    sessions: [{ key: 's', session: { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 } }],
  });
  await a.commit({ players: [{ state: bump(player(1), 77), expectedVersion: 0 }] });
  await a.close();
  t.is(statSync(join(dir, 'journal.log')).size, 0, 'close checkpoints and empties the journal');
  t.true(existsSync(join(dir, 'players', '1', '1.json')));
  const b = await FileStorage.open({ dir });
  t.is((await b.load(1))?.gold, 77);
  t.is(await b.lookup('myCode', player(1).myCode), 1);
  t.truthy(await b.getSession('s'));
  t.is(await b.nextPlayerId(), 2);
  await b.close();
});

test('without a close (a crash), the journal is replayed on open', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  for (let i = 1; i <= 20; i++) await a.commit({ players: [{ state: player(i), expectedVersion: null }] });
  await a.commit({ players: [{ state: bump(player(3), 33), expectedVersion: 0 }] });
  // `a` is abandoned without close, as a killed process would leave it.
  const b = await FileStorage.open({ dir });
  t.is((await b.playerIds()).length, 20);
  t.is((await b.load(3))?.gold, 33);
  t.is(await b.lookup('uuid', player(20).account.uuid), 20);
  await b.close();
});

test('a torn last record is dropped whole and the file is cut back to the last whole record', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  const whole = statSync(join(dir, 'journal.log')).size;
  // Half of a second record, as a crash in the middle of a write leaves it.
  const full = readFileSync(join(dir, 'journal.log'));
  appendFileSync(join(dir, 'journal.log'), full.subarray(0, Math.floor(full.length / 2)));
  const b = await FileStorage.open({ dir });
  t.is(statSync(join(dir, 'journal.log')).size, whole);
  t.deepEqual(await b.playerIds(), [1]);
  await b.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await b.close();
  const c = await FileStorage.open({ dir });
  t.deepEqual(await c.playerIds(), [1, 2], 'later writes follow the cut cleanly');
  await c.close();
});

test('a record whose checksum does not match is not applied', (t) => {
  const good = '00000000 {"seq":1,"players":[],"sessions":[]}\n';
  const { records, good: end } = parseJournal(Buffer.from(good));
  t.is(records.length, 0);
  t.is(end, 0);
});

test('checkpoints write snapshots, empty the journal, and players load lazily through a bounded cache', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir, checkpointBytes: 50_000, cacheSize: 3 });
  for (let i = 1; i <= 40; i++) await a.commit({ players: [{ state: player(i), expectedVersion: null }] });
  // The first cut comes once 50 kB are written (~8 records): the writer waits for it, so it is sure.
  // Later cuts wait for the snapshots of the one before, which a loaded machine may still be writing.
  t.true(parseJournal(readFileSync(join(dir, 'journal.log'))).records.length < 40, 'the journal was cut');
  // Snapshots and checkpoint.json are written beside the commits: wait for them.
  for (let i = 0; i < 500 && !existsSync(join(dir, 'checkpoint.json')); i++)
    await new Promise((r) => setTimeout(r, 20));
  t.true(existsSync(join(dir, 'checkpoint.json')));
  for (let i = 1; i <= 40; i++) t.is((await a.load(i))?.playerId, i);
  await a.close();
  const b = await FileStorage.open({ dir, cacheSize: 2 });
  for (let i = 40; i >= 1; i--) t.is((await b.load(i))?.myCode, player(i).myCode);
  await b.close();
});

test('group commit: concurrent commits share fsyncs and all land, in one or per-commit mode', async (t) => {
  for (const groupCommit of [true, false]) {
    const dir = dirFor(t);
    const a = await FileStorage.open({ dir, groupCommit });
    const res = await Promise.all(
      Array.from({ length: 50 }, (_, i) => a.commit({ players: [{ state: player(i + 1), expectedVersion: null }] })),
    );
    t.true(res.every((r) => r.ok));
    const lines = readFileSync(join(dir, 'journal.log'), 'utf8').trim().split('\n');
    t.is(lines.length, 50);
    await a.close();
  }
});

test('a failed write (disk full) rejects the commit, changes nothing, and the store recovers', async (t) => {
  const dir = dirFor(t);
  let full = false;
  const a = await FileStorage.open({
    dir,
    faults: {
      beforeWrite: () => {
        if (full) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      },
    },
  });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  full = true;
  const err = await t.throwsAsync(
    a.commit({
      players: [
        { state: bump(player(1), 9), expectedVersion: 0 },
        { state: player(2), expectedVersion: null },
      ],
    }),
  );
  t.true(err instanceof StorageError);
  t.is((await a.load(1))?.gold, player(1).gold);
  t.is(await a.load(2), undefined);
  t.is(await a.lookup('uuid', player(2).account.uuid), undefined, 'the index was rolled back');
  full = false;
  t.true((await a.commit({ players: [{ state: bump(player(1), 9), expectedVersion: 0 }] })).ok);
  await a.close();
  const b = await FileStorage.open({ dir });
  t.is((await b.load(1))?.gold, 9);
  t.is(await b.load(2), undefined);
  await b.close();
});

test('a snapshot that does not decode is reported, not silently dropped', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  writeFileSync(join(dir, 'players', '1', '1.json'), '{"not":"a player"}');
  const b = await FileStorage.open({ dir });
  await t.throwsAsync(b.load(1), { instanceOf: StorageError });
  await b.close();
});

test('the replay log survives checkpoints; entries the oplog lost (a crash, a torn line) are restored from the journal on open', async (t) => {
  const dir = dirFor(t);
  const entry = (p: PlayerState): LogRun => ({
    kind: 'op',
    at: p.version,
    masterHash: 'm',
    op: 'loginPlayer',
    playerId: p.playerId,
    request: {},
    seed: '',
    others: [],
  });
  const a = await FileStorage.open({ dir, checkpointBytes: 1 });
  let p = player(1);
  await a.commit({ players: [{ state: p, expectedVersion: null }], log: entry(p) });
  for (let i = 1; i <= 3; i++) {
    const next = bump(p, i);
    await a.commit({ players: [{ state: next, expectedVersion: p.version }], log: entry(next) });
    p = next;
  }
  t.deepEqual(
    (await a.readLog()).map((e) => e.seq),
    [1, 2, 3, 4],
  );
  await a.close();
  t.is(statSync(join(dir, 'journal.log')).size, 0, 'the journal is empty: the log lives in the oplog alone');

  // Without checkpoints, then a crash whose oplog append was lost, and a torn oplog line.
  const b = await FileStorage.open({ dir });
  const next = bump(p, 9);
  await b.commit({ players: [{ state: next, expectedVersion: p.version }], log: entry(next) });
  const full = readFileSync(join(dir, 'oplog.jsonl'));
  const cut = full.subarray(0, full.lastIndexOf(0x0a, full.length - 2) + 1);
  writeFileSync(join(dir, 'oplog.jsonl'), Buffer.concat([cut, Buffer.from('{"seq":5,"ki')]));
  const c = await FileStorage.open({ dir });
  const log = await c.readLog();
  t.deepEqual(
    log.map((e) => e.seq),
    [1, 2, 3, 4, 5],
  );
  t.is(log[4]?.results[0]?.stateHash, stateHash(next));
  t.true(readFileSync(join(dir, 'oplog.jsonl'), 'utf8').endsWith('\n'));
  await c.close();
});

test('a checkpoint runs beside the commits: while its snapshots are written, commits go on', async (t) => {
  const dir = dirFor(t);
  let open = (): void => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  let held = 0;
  const a = await FileStorage.open({
    dir,
    checkpointBytes: 30_000,
    faults: {
      beforeSnapshots: async () => {
        held++;
        await gate;
      },
    },
  });
  for (let i = 1; i <= 10; i++) t.true((await a.commit({ players: [{ state: player(i), expectedVersion: null }] })).ok);
  t.true(held >= 1, 'a checkpoint started and is held');
  // Under the held checkpoint: more commits land, into a fresh journal.
  for (let i = 11; i <= 20; i++)
    t.true((await a.commit({ players: [{ state: player(i), expectedVersion: null }] })).ok);
  const names = readdirSync(dir);
  t.true(
    names.some((f) => /^journal\.\d+\.log$/.test(f)),
    'the journal was rotated',
  );
  open();
  await a.close();
  t.false(
    readdirSync(dir).some((f) => /^journal\.\d+\.log$/.test(f)),
    'rotated journals are removed once covered',
  );
  const b = await FileStorage.open({ dir });
  t.is((await b.playerIds()).length, 20);
  await b.close();
});

test('a crash during a checkpoint (its rotated journal left behind) loses nothing on restart', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({
    dir,
    checkpointBytes: 30_000,
    faults: {
      beforeSnapshots: () => {
        throw new Error('crash in the middle of a checkpoint');
      },
    },
  });
  for (let i = 1; i <= 12; i++) await a.commit({ players: [{ state: player(i), expectedVersion: null }] });
  await a.commit({ players: [{ state: bump(player(2), 22), expectedVersion: 0 }] });
  await new Promise((r) => setTimeout(r, 50));
  t.true(
    readdirSync(dir).some((f) => /^journal\.\d+\.log$/.test(f)),
    'a rotated journal is there',
  );
  // `a` is abandoned, as a killed process would leave it.
  const b = await FileStorage.open({ dir });
  t.is((await b.playerIds()).length, 12);
  t.is((await b.load(2))?.gold, 22);
  await b.close();
  t.false(readdirSync(dir).some((f) => /^journal\.\d+\.log$/.test(f)));
  const c = await FileStorage.open({ dir });
  t.is((await c.load(2))?.gold, 22, 'and from the snapshots alone after the next checkpoint');
  await c.close();
});

test('a checkpoint adds to the index log only the keys and sessions that changed; checkpoint.json holds neither', async (t) => {
  const dir = dirFor(t);
  const logLines = () =>
    readdirSync(dir)
      .filter((f) => /^index\.\d+\.log$/.test(f))
      .flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .split('\n')
          .filter((l) => l !== ''),
      );
  const a = await FileStorage.open({ dir, checkpointBytes: 1 });
  await a.commit({
    players: [
      { state: player(1), expectedVersion: null },
      { state: player(2), expectedVersion: null },
    ],
  });
  await a.close();
  t.is(logLines().length, 1, 'a full line');
  const b = await FileStorage.open({ dir, checkpointBytes: 1 });
  let p1 = (await b.load(1)) as PlayerState;
  // Gold and a session change, no key: each checkpoint's line holds the session alone.
  for (let i = 0; i < 3; i++) {
    const next = bump(p1, 10 + i);
    await b.commit({
      players: [{ state: next, expectedVersion: p1.version }],
      sessions: [{ key: `s${i}`, session: { playerId: 1, epoch: 0, createdAt: i, lastSeenAt: i } }],
    });
    p1 = next;
  }
  await b.close();
  const added = logLines().slice(1).join('\n');
  t.false(added.includes(player(1).account.uuid), 'no player key in the lines of changes');
  t.true(['s0', 's1', 's2'].every((k) => added.includes(`"${k}"`)));
  const cp = readFileSync(join(dir, 'checkpoint.json'), 'utf8');
  t.false(
    cp.includes(player(1).account.uuid) || cp.includes('"s2"'),
    'checkpoint.json holds no player keys and no sessions',
  );
  const c = await FileStorage.open({ dir, checkpointBytes: 1 });
  await c.commit({ players: [{ state: player(3), expectedVersion: null }] });
  await c.close();
  t.true(logLines().at(-1)?.includes(player(3).account.uuid), "a new player's keys in the next line");
  const d = await FileStorage.open({ dir });
  t.is(await d.lookup('uuid', player(3).account.uuid), 3);
  t.is(await d.lookup('myCode', player(2).myCode), 2);
  t.truthy(await d.getSession('s2'));
  t.is((await d.load(1))?.gold, 12);
  await d.close();
});

test('a checkpoint written before the keys file (one checkpoint.json holding the whole index) still opens', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  // As such a checkpoint.json was: the keys and sessions in it, plain JSON.
  const session = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 };
  const seq = (unseal(readFileSync(join(dir, 'checkpoint.json')), 'checkpoint.json') as { seq: number }).seq;
  writeFileSync(
    join(dir, 'checkpoint.json'),
    JSON.stringify({
      seq,
      index: {
        maxPlayerId: 1,
        uuid: [[player(1).account.uuid, 1]],
        myCode: [[player(1).myCode, 1]],
        moveCode: [],
        sessions: [['s', session]],
      },
    }),
  );
  for (const f of readdirSync(dir)) if (/^index\.\d+\.log$/.test(f)) rmSync(join(dir, f));
  const b = await FileStorage.open({ dir, checkpointBytes: 1 });
  t.is(await b.lookup('uuid', player(1).account.uuid), 1);
  t.deepEqual(await b.getSession('s'), session);
  // Its first checkpoint starts an index log.
  await b.commit({ players: [{ state: bump((await b.load(1)) as PlayerState, 5), expectedVersion: 0 }] });
  await b.close();
  t.is(readdirSync(dir).filter((f) => /^index\.\d+\.log$/.test(f)).length, 1);
});

test('a change to a stored player is journaled as the fields it changed, and replays to the same state', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir, checkpointBytes: 1 << 30 });
  let s = { ...receiveAll(t, player(1)), gem: 99_999 };
  await a.commit({ players: [{ state: s, expectedVersion: null }] });
  const whole = statSync(join(dir, 'journal.log')).size;
  const seen: PlayerState[] = [s];
  for (let i = 0; i < 6; i++) {
    const next = {
      ...ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: `delta${i}` }).state,
      version: s.version + 1,
    };
    await a.commit({ players: [{ state: next, expectedVersion: s.version }] });
    s = next;
    seen.push(s);
  }
  const small = { ...s, gold: s.gold + 1, version: s.version + 1 };
  const size = statSync(join(dir, 'journal.log')).size;
  await a.commit({ players: [{ state: small, expectedVersion: s.version }] });
  t.true(statSync(join(dir, 'journal.log')).size - size < 400, 'a gold change is a few hundred bytes');
  t.true(whole > 3000, 'the first record holds the whole state');
  const lines = readFileSync(join(dir, 'journal.log'), 'utf8').trim().split('\n');
  t.true(
    lines.slice(1).every((l) => l.includes('"deltas":[{"base":')),
    'later records are deltas',
  );
  // The first store is abandoned (a crash): the journal replays to the very state.
  await replaysTo(t, dir, small);
});

test('deltas a snapshot already holds are skipped (a checkpoint that wrote it did not finish); a gap is an error', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir, checkpointBytes: 1 << 30 });
  const versions: PlayerState[] = [player(1)];
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  for (let v = 1; v <= 5; v++) {
    const next = bump(versions[v - 1] as PlayerState, 100 + v);
    await a.commit({ players: [{ state: next, expectedVersion: v - 1 }] });
    versions.push(next);
  }
  const snapshot = join(dir, 'players', '1', '1.json');
  mkdirSync(join(dir, 'players', '1'), { recursive: true });
  // Each store below is abandoned, as a crash leaves it: closing would checkpoint.
  for (const at of [5, 3]) {
    writeFileSync(snapshot, canonicalJson(versions[at]));
    const b = await FileStorage.open({ dir, checkpointBytes: 1 << 30 });
    t.is((await b.load(1))?.gold, 105, `from a snapshot at version ${at}`);
  }
  // A snapshot older than the journal's first record for the player: nothing can bridge the gap.
  const journal = readFileSync(join(dir, 'journal.log'), 'utf8').split('\n');
  writeFileSync(join(dir, 'journal.log'), `${journal.slice(2).join('\n')}`);
  writeFileSync(snapshot, canonicalJson(versions[0]));
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: StorageError });
  // The first two records are gone: the journal no longer follows the checkpoint (issue 18: a gap in seq is damage).
  t.regex(err?.message ?? '', /records 1 to 2 are missing before it|delta is from version 1, the state is at 0/);
});

test('a changed list is journaled as an edit of the one it replaced (runs copied, new elements whole), and replays to the same state', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir, checkpointBytes: 1 << 30 });
  const s = { ...receiveAll(t, player(1)), gem: 99_999, characters: characters(40) };
  await a.commit({ players: [{ state: s, expectedVersion: null }] });
  const drawn = {
    ...ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'edit1' }).state,
    version: s.version + 1,
  };
  t.not(drawn.characters, s.characters, 'the draw changed the list');
  const size = statSync(join(dir, 'journal.log')).size;
  await a.commit({ players: [{ state: drawn, expectedVersion: s.version }] });
  const line = readFileSync(join(dir, 'journal.log'), 'utf8').trim().split('\n').at(-1) ?? '';
  t.regex(line, /"edits":\{[^]*"characters":\[\[0,\d+\],\{/);
  const whole = canonicalJson({ l: drawn.characters }).length;
  t.true(
    statSync(join(dir, 'journal.log')).size - size < whole / 4,
    `a draw's record is a fraction of the ${whole}-byte list`,
  );
  // The first store is abandoned (a crash): the journal replays to the very state.
  await replaysTo(t, dir, drawn);
});

test('a list edit that does not fit the list it edits is refused on open, naming the record and the field', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir, checkpointBytes: 1 << 30 });
  const s = { ...player(1), characters: characters(3) };
  await a.commit({ players: [{ state: s, expectedVersion: null }] });
  await a.commit({
    players: [
      {
        state: { ...s, characters: [...s.characters, ...characters(4).slice(3)], version: s.version + 1 },
        expectedVersion: s.version,
      },
    ],
  });
  const lines = readFileSync(join(dir, 'journal.log'), 'utf8').trim().split('\n');
  const body = (lines[1] ?? '').slice(9).replace('[[0,3]', '[[0,9]');
  t.true(body.includes('[[0,9]'), 'the edit was found and stretched past the list');
  lines[1] = `${crc32(Buffer.from(body, 'utf8')).toString(16).padStart(8, '0')} ${body}`;
  writeFileSync(join(dir, 'journal.log'), `${lines.join('\n')}\n`);
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: StorageError });
  t.regex(err?.message ?? '', /journal record \d+: field characters of player 1's delta does not decode/);
});

test('draw histories are read from the snapshots of players not in memory, and none is kept', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  const record = (id: number) => ({
    gachaId: 2,
    drawnAt: id,
    drawType: 3,
    characterIds: [id, id + 1],
    payment: { ticket: 0, gem: 1500, paidGem: 0 },
    granted: true,
  });
  const players = Array.from({ length: 5 }, (_, i) => ({ ...player(i + 1), gachaHistory: [record(i)] }));
  await a.commit({ players: players.map((state) => ({ state, expectedVersion: null })) });
  await a.close();
  const b = await FileStorage.open({ dir, cacheSize: 2 });
  t.teardown(() => b.close());
  await b.load(1);
  const before = b.stats().playersInMemory;
  const seen: number[] = [];
  t.is(await b.drawHistories((h) => seen.push(...h.map((r) => r.drawnAt))), 5);
  t.deepEqual(seen.sort(), [0, 1, 2, 3, 4]);
  t.is(b.stats().playersInMemory, before, 'the scan kept no player in memory');
  t.deepEqual(await b.findByName(player(3).name, 10), [1, 2, 3, 4, 5], 'the name search reads the same way');
});

test('a checkpoint drops the idempotency records older than the kept time; one exactly that old and newer ones stay', async (t) => {
  const dir = dirFor(t);
  const ttl = 1000;
  const now = 50_000;
  const record = (createdAt: number) => ({ requestHash: `h${createdAt}`, answer: { ok: {} }, createdAt });
  const a = await FileStorage.open({ dir, idempotencyTtlMs: ttl, clock: () => now });
  await a.commit({
    players: [{ state: player(1), expectedVersion: null }],
    idempotency: [
      { key: 'old', record: record(now - ttl - 1) },
      { key: 'edge', record: record(now - ttl) },
      { key: 'new', record: record(now) },
    ],
  });
  t.truthy(await a.getIdempotency('old'), 'kept until a checkpoint');
  await a.close();
  const b = await FileStorage.open({ dir });
  t.deepEqual(
    [await b.getIdempotency('old'), await b.getIdempotency('edge'), await b.getIdempotency('new')],
    [undefined, record(now - ttl), record(now)],
  );
  await b.close();
});

test('a key a stored player makes, and one it frees, reach the keys file: after a checkpoint and a restart the move code is found, then gone', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  // No new player from here on: only the player's own keys change.
  const coded = {
    ...bump(player(1), 5),
    move: { code: 'MOVECODE01', salt: 's', passwordHash: 'h', deadline: 1, failures: 0 },
  };
  const b = await FileStorage.open({ dir });
  await b.commit({ players: [{ state: coded, expectedVersion: 0 }] });
  await b.close();
  const c = await FileStorage.open({ dir });
  t.is(await c.lookup('moveCode', 'MOVECODE01'), 1);
  await c.commit({ players: [{ state: { ...coded, move: null, version: 2 }, expectedVersion: 1 }] });
  await c.close();
  const d = await FileStorage.open({ dir });
  t.is(await d.lookup('moveCode', 'MOVECODE01'), undefined);
  t.is(await d.lookup('myCode', player(1).myCode), 1);
  await d.close();
});

test('a failed write rolls back every index it touched: sessions put and removed, keys made and freed, recent players, the next id', async (t) => {
  const dir = dirFor(t);
  let full = false;
  const a = await FileStorage.open({
    dir,
    faults: {
      beforeWrite: () => {
        if (full) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      },
    },
  });
  const session = (at: number) => ({ playerId: 1, epoch: 0, createdAt: at, lastSeenAt: at });
  const coded = { ...player(1), move: { code: 'MOVECODE01', salt: 's', passwordHash: 'h', deadline: 1, failures: 0 } };
  await a.commit({
    players: [{ state: coded, expectedVersion: null }],
    sessions: [
      { key: 'kept', session: session(1) },
      { key: 'gone', session: session(1) },
    ],
  });
  await a.commit({ players: [{ state: player(2), expectedVersion: null }] });
  const before = await Promise.all([a.recentlyActive(5), a.getSession('kept'), a.getSession('gone')]);
  full = true;
  await t.throwsAsync(
    a.commit({
      players: [
        { state: { ...bump(coded, 9), move: null, myCode: 'NEWCODE001' }, expectedVersion: 0 },
        { state: player(9), expectedVersion: null },
      ],
      sessions: [
        { key: 'kept', session: session(2) },
        { key: 'gone', session: null },
        { key: 'new', session: session(2) },
      ],
      idempotency: [{ key: '1:k', record: { requestHash: 'h', answer: { ok: {} }, createdAt: 2 } }],
    }),
  );
  full = false;
  t.deepEqual(await Promise.all([a.recentlyActive(5), a.getSession('kept'), a.getSession('gone')]), before);
  t.deepEqual([await a.getSession('new'), await a.getIdempotency('1:k')], [undefined, undefined]);
  t.deepEqual(
    [
      await a.lookup('moveCode', 'MOVECODE01'),
      await a.lookup('myCode', player(1).myCode),
      await a.lookup('myCode', 'NEWCODE001'),
      await a.lookup('uuid', player(9).account.uuid),
    ],
    [1, 1, undefined, undefined],
  );
  t.is(await a.nextPlayerId(), 3, "the failed player's id is not counted as used");
  await a.close();
  // What the checkpoint wrote of them: no entry for what the failed commit added.
  const b = await FileStorage.open({ dir });
  t.deepEqual(
    [await b.getSession('new'), await b.lookup('myCode', 'NEWCODE001'), await b.lookup('uuid', player(9).account.uuid)],
    [undefined, undefined, undefined],
  );
  await b.close();
});
