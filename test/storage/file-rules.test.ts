// file.ts's rules (issue 23): the JSON-file store's start (what it replays, what it
// skips, what it reports), its commit queue (group commit, the records' numbering,
// a batch refused whole or rolled back whole), its cache of players, its checkpoints
// and its close. Events are counted (fsyncs held at a gate, file calls recorded by
// test/_support/fs-spy.ts), never raced against a clock.
import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotPath } from '../../adapters/storage/checkpoint.js';
import { seal } from '../../adapters/storage/sealed.js';
import { FileStorage, type FileStorageOptions } from '../../adapters/storage/file.js';
import { encodeRecord, parseJournal } from '../../adapters/storage/journal.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import { StorageError, type IdempotencyRecord, type Session } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { spyFiles, tempDir, type FileFaults } from '../_support/fs-spy.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });
const session = (playerId: number): Session => ({ playerId, epoch: 0, createdAt: 1, lastSeenAt: 1 });
const record = (n: number): IdempotencyRecord => ({ requestHash: `h${n}`, answer: { ok: { n } }, createdAt: 1 });
const run = (p: PlayerState): LogRun => ({
  kind: 'op',
  at: p.version,
  masterHash: 'm',
  op: 'loginPlayer',
  playerId: p.playerId,
  request: {},
  seed: '',
  others: [],
});

/** A store with its log events, closed at the end of the test. */
const opened = async (t: ExecutionContext, o: FileStorageOptions) => {
  const events: Array<[string, Record<string, unknown>]> = [];
  const store = await FileStorage.open({ ...o, log: (e, d) => events.push([e, d]) });
  t.teardown(() => store.close());
  return { store, events, named: (name: string) => events.filter(([e]) => e === name).map(([, d]) => d) };
};

/**
 * A journal fsync the test holds: `sync` goes in faults.sync; while `hold()` is on,
 * each fsync waits until `release()`; `syncs` counts the fsyncs made, and
 * `held()` resolves once one is waiting.
 */
const fsyncs = () => {
  let holding = false;
  const waiting: Array<() => void> = [];
  let arrived = (): void => {};
  const c = {
    syncs: 0,
    hold: () => {
      holding = true;
    },
    held: () =>
      new Promise<void>((r) => {
        if (waiting.length > 0) r();
        else arrived = r;
      }),
    release: () => {
      holding = false;
      for (const go of waiting.splice(0)) go();
    },
    sync: async (datasync: () => Promise<void>) => {
      c.syncs++;
      if (holding)
        await new Promise<void>((r) => {
          waiting.push(r);
          arrived();
        });
      await datasync();
    },
  };
  return c;
};
/** Holds the next read of a file (faults.readGate): `reached` resolves once a read waits, `open()` lets it go. */
const readGate = (faults: FileFaults) => {
  let open = (): void => {};
  let reached = (): void => {};
  faults.readGate = new Promise<void>((r) => {
    open = r;
  });
  const arrived = new Promise<void>((r) => {
    reached = r;
  });
  faults.onReadHeld = () => {
    faults.readGate = undefined;
    reached();
  };
  return { arrived, open };
};

/**
 * The next 'checkpoint' a store logs, for a store whose checkpoints come on its timer: the
 * timer does not hold the process open (unref), so a guard does while the test waits
 * (it fails the wait only if no checkpoint comes in 10 s, a bound for a broken timer,
 * below the mutation run's 20 s timeout; a 1 ms timer brings one in a few ms).
 */
const nextCheckpoint = () => {
  let checkpointed = (): void => {};
  let guard: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve, reject) => {
    checkpointed = resolve;
    guard = setTimeout(() => reject(new Error('no checkpoint came')), 10_000);
  }).finally(() => clearTimeout(guard));
  return {
    done,
    log: (e: string) => {
      if (e === 'checkpoint') checkpointed();
    },
  };
};

// ---- the start -------------------------------------------------------------------

test('a fresh directory gets its players directory at once', async (t) => {
  const dir = tempDir(t);
  await opened(t, { dir });
  t.true(statSync(join(dir, 'players')).isDirectory());
});

test('a torn tail is logged with the bytes dropped; a clean journal logs none; the start logs the records replayed', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  for (const id of [1, 2]) await a.commit({ players: [{ state: player(id), expectedVersion: null }] });
  // a is left open, as a killed process leaves it.
  const clean = await opened(t, { dir });
  t.deepEqual(clean.named('journal.torn'), []);
  t.deepEqual(clean.named('storage.open'), [{ dir, replayed: 2, players: 2 }]);
  await clean.store.close();
  const cp = await opened(t, { dir });
  t.deepEqual(cp.named('storage.open'), [{ dir, replayed: 0, players: 2 }], 'the close checkpointed both');
  await cp.store.commit({ players: [{ state: player(3), expectedVersion: null }] });
  writeFileSync(
    join(dir, 'journal.log'),
    Buffer.concat([readFileSync(join(dir, 'journal.log')), Buffer.from('0badc0de {"seq":')]),
  );
  const torn = await opened(t, { dir });
  t.deepEqual(torn.named('journal.torn'), [{ dropped: 16 }]);
  t.deepEqual(torn.named('storage.open'), [{ dir, replayed: 1, players: 3 }]);
});

test('records a checkpoint covers are not replayed again (a crash left its rotated journal): nothing is dirty in memory', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.commit({ players: [{ state: bump(player(1), 5), expectedVersion: 0 }] });
  const journal = readFileSync(join(dir, 'journal.log'));
  await a.close();
  // As if the checkpoint covering seq 2 wrote checkpoint.json and then the process died before removing the journal.
  writeFileSync(join(dir, 'journal.2.log'), journal);
  const { store, named } = await opened(t, { dir });
  t.deepEqual(store.stats(), {
    playersInMemory: 0,
    journalBytes: 0,
    answersInMemory: 0,
    answersStored: { bytes: 0 },
    replayLogBytes: 0,
    replayLogEntries: 0,
  });
  t.deepEqual(named('storage.open'), [{ dir, replayed: 0, players: 1 }]);
  t.is((await store.load(1))?.gold, 5);
});

test('a whole state in the journal that does not decode, or a delta with no state under it, stops the start naming the record', async (t) => {
  const dir = tempDir(t);
  // A journal line is framed as a sealed file is: CRC, space, JSON, line feed.
  writeFileSync(
    join(dir, 'journal.log'),
    seal(encodeRecord({ seq: 1, sessions: [] }, []).slice(9, -1).replace('"players":[]', '"players":[{"playerId":1}]')),
  );
  await t.throwsAsync(FileStorage.open({ dir }), {
    instanceOf: StorageError,
    message: 'journal record 1: a player state does not decode',
  });
  const p = player(4);
  writeFileSync(
    join(dir, 'journal.log'),
    encodeRecord({ seq: 1, sessions: [] }, [
      { kind: 'delta', state: bump(p, 1), before: p, fields: ['gold', 'version'] },
    ]),
  );
  await t.throwsAsync(FileStorage.open({ dir }), {
    instanceOf: StorageError,
    message: "journal record 1: player 4's delta is from version 0, the state is at none",
  });
});

test('a delta the snapshot is already one version past is skipped (a checkpoint wrote the snapshot and did not finish)', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  const b = await FileStorage.open({ dir });
  await b.commit({ players: [{ state: bump(player(1), 7), expectedVersion: 0 }] });
  const journal = readFileSync(join(dir, 'journal.log'));
  await b.close();
  // The snapshot holds version 1; the journal (not removed) holds the delta 0 → 1 after checkpoint.json's seq.
  const cp = readFileSync(join(dir, 'checkpoint.json'), 'utf8');
  writeFileSync(join(dir, 'checkpoint.json'), seal(cp.slice(9, -1).replace(/"seq":2/, '"seq":1')));
  writeFileSync(join(dir, 'journal.log'), journal);
  const c = await FileStorage.open({ dir });
  t.is((await c.load(1))?.version, 1);
  t.is((await c.load(1))?.gold, 7);
  await c.close();
});

test('after a crash, the sessions, idempotency records and keys in the journal are replayed onto the states before them', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  const coded = {
    ...bump(player(1), 5),
    move: { code: 'MOVECODE01', salt: 's', passwordHash: 'h', deadline: 1, failures: 0 },
  };
  await a.commit({
    players: [{ state: player(1), expectedVersion: null }],
    sessions: [{ key: 's1', session: session(1) }],
    idempotency: [{ key: '1:k', record: record(1) }],
  });
  await a.commit({ players: [{ state: coded, expectedVersion: 0 }] });
  await a.commit({
    players: [{ state: { ...coded, move: { ...coded.move, code: 'MOVECODE02' }, version: 2 }, expectedVersion: 1 }],
  });
  // a is left open: a crash.
  const { store } = await opened(t, { dir });
  t.deepEqual(await store.getSession('s1'), session(1));
  t.deepEqual(await store.getIdempotency('1:k'), record(1));
  t.is(await store.lookup('moveCode', 'MOVECODE02'), 1);
  t.is(await store.lookup('moveCode', 'MOVECODE01'), undefined, 'the key the replaced state held is freed');
  t.true(
    (await store.commit({ players: [{ state: bump({ ...coded, version: 2 }, 9), expectedVersion: 2 }] })).ok,
    'the version replayed is the one a commit expects',
  );
});

// ---- the cache -------------------------------------------------------------------

/** A store of players 1..n, checkpointed and opened again: every player on disk only. */
const onDisk = async (t: ExecutionContext, dir: string, n: number, o: Partial<FileStorageOptions> = {}) => {
  const a = await FileStorage.open({ dir });
  for (let id = 1; id <= n; id++) await a.commit({ players: [{ state: player(id), expectedVersion: null }] });
  await a.close();
  return opened(t, { dir, ...o });
};

test("loads are reported as cache hits or misses; the writer's own loads are not", async (t) => {
  const dir = tempDir(t);
  const { store } = await onDisk(t, dir, 2);
  const seen: boolean[] = [];
  store.observer = { cache: (hit) => seen.push(hit) };
  await store.load(1);
  await store.load(1);
  t.deepEqual(seen, [false, true]);
  await store.commit({ players: [{ state: bump(player(2), 3), expectedVersion: 0 }] });
  t.deepEqual(seen, [false, true], 'a commit loading player 2 reports nothing');
  await store.load(2);
  t.deepEqual(seen, [false, true, true], 'the committed state is in memory');
  await store.commit({ players: [{ state: bump(bump(player(2), 3), 4), expectedVersion: 1 }] });
  t.deepEqual(seen, [false, true, true], 'a commit finding player 2 in memory reports nothing either');
});

test('the cache keeps the players used last, up to its size', async (t) => {
  const dir = tempDir(t);
  const { store } = await onDisk(t, dir, 3, { cacheSize: 2 });
  const seen: boolean[] = [];
  store.observer = { cache: (hit) => seen.push(hit) };
  await store.load(1);
  await store.load(2);
  t.is(store.stats().playersInMemory, 2, 'two fit');
  await store.load(1); // 1 is now the one used last
  await store.load(3); // 2 goes
  t.is(store.stats().playersInMemory, 2);
  seen.length = 0;
  await store.load(1);
  await store.load(3);
  await store.load(2);
  t.deepEqual(seen, [true, true, false]);
});

test('a load that read a snapshot while a commit stored a newer state returns the newer one', async (t) => {
  const dir = tempDir(t);
  const faults: FileFaults = { file: 'players/1/1.json' };
  spyFiles(t, dir, faults);
  const { store } = await onDisk(t, dir, 1);
  const gate = readGate(faults);
  const loading = store.load(1);
  await gate.arrived;
  t.true((await store.commit({ players: [{ state: bump(player(1), 8), expectedVersion: 0 }] })).ok);
  gate.open();
  t.is((await loading)?.gold, 8);
  t.is((await store.load(1))?.gold, 8);
});

test('playersInMemory counts the changed players and the cached ones', async (t) => {
  const dir = tempDir(t);
  const { store } = await onDisk(t, dir, 3, { cacheSize: 5 });
  await store.load(1);
  await store.load(2);
  await store.commit({ players: [{ state: bump(player(3), 1), expectedVersion: 0 }] });
  t.is(store.stats().playersInMemory, 3);
});

// ---- commits ---------------------------------------------------------------------

test('commits queued behind an fsync share the next one (group commit is the default); one at a time without it', async (t) => {
  for (const groupCommit of [undefined, false]) {
    const dir = tempDir(t);
    const f = fsyncs();
    const { store } = await opened(t, {
      dir,
      ...(groupCommit === undefined ? {} : { groupCommit }),
      faults: { sync: f.sync },
    });
    f.hold();
    const first = store.commit({ players: [{ state: player(1), expectedVersion: null }] });
    await f.held();
    const rest = [2, 3, 4].map((id) => store.commit({ players: [{ state: player(id), expectedVersion: null }] }));
    f.release();
    t.true((await Promise.all([first, ...rest])).every((r) => r.ok));
    t.is(f.syncs, groupCommit === undefined ? 2 : 4, String(groupCommit));
  }
});

test('a batch of commits gets consecutive records and log entries, and a crash replays every one', async (t) => {
  const dir = tempDir(t);
  const f = fsyncs();
  const a = await FileStorage.open({ dir, faults: { sync: f.sync } });
  const batches: number[] = [];
  a.observer = { batch: (n) => batches.push(n) };
  f.hold();
  const first = a.commit({ players: [{ state: player(1), expectedVersion: null }], log: run(player(1)) });
  await f.held();
  const rest = [2, 3, 4].map((id) =>
    a.commit({ players: [{ state: player(id), expectedVersion: null }], log: run(player(id)) }),
  );
  f.release();
  await Promise.all([first, ...rest]);
  t.deepEqual(batches, [1, 3]);
  t.deepEqual(
    (await a.readLog()).map((e) => e.seq),
    [1, 2, 3, 4],
  );
  t.deepEqual(
    parseJournal(readFileSync(join(dir, 'journal.log'))).records.map((r) => r.seq),
    [1, 2, 3, 4],
  );
  const b = await FileStorage.open({ dir });
  t.deepEqual(await b.playerIds(), [1, 2, 3, 4]);
  t.deepEqual(
    (await b.readLog()).map((e) => e.seq),
    [1, 2, 3, 4],
  );
  await b.close();
});

test('a record holds what the commit holds, no more: no log entry without a run, empty sessions and idempotency lists', async (t) => {
  const dir = tempDir(t);
  const { store } = await opened(t, { dir });
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  const [r] = parseJournal(readFileSync(join(dir, 'journal.log'))).records;
  t.deepEqual(Object.keys(r ?? {}), ['players', 'seq', 'sessions', 'idempotency']);
  t.deepEqual([r?.sessions, r?.idempotency], [[], []]);
});

test('a batch every commit of which is refused writes nothing and fsyncs nothing', async (t) => {
  const dir = tempDir(t);
  const f = fsyncs();
  const { store } = await opened(t, { dir, faults: { sync: f.sync } });
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  const size = statSync(join(dir, 'journal.log')).size;
  const batches: number[] = [];
  store.observer = { batch: (n) => batches.push(n) };
  const r = await store.commit({ players: [{ state: bump(player(1), 2), expectedVersion: 5 }] });
  t.false(r.ok);
  t.is(f.syncs, 1);
  t.deepEqual(batches, []);
  t.is(statSync(join(dir, 'journal.log')).size, size);
});

test('the time a batch reports is its own, in seconds', async (t) => {
  const dir = tempDir(t);
  const { store } = await opened(t, { dir });
  const seconds: number[] = [];
  store.observer = { batch: (_, s) => seconds.push(s) };
  const before = performance.now();
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  const within = (performance.now() - before) / 1000;
  t.is(seconds.length, 1);
  t.true((seconds[0] ?? -1) >= 0 && (seconds[0] ?? Infinity) <= within, `${seconds[0]} s within ${within} s`);
});

test('a failed batch is undone in reverse: a session one commit put and the next removed is as before both', async (t) => {
  const dir = tempDir(t);
  const f = fsyncs();
  let failWrite = false;
  const { store, named } = await opened(t, {
    dir,
    faults: {
      sync: f.sync,
      beforeWrite: () => {
        if (failWrite) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      },
    },
  });
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  f.hold();
  const first = store.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await f.held();
  const put = store.commit({ players: [], sessions: [{ key: 's', session: session(1) }] });
  const removed = store.commit({ players: [], sessions: [{ key: 's', session: null }] });
  failWrite = true;
  f.release();
  t.true((await first).ok);
  for (const c of [put, removed]) {
    const err = await t.throwsAsync(c, { instanceOf: StorageError });
    t.is(err?.message, 'the journal write failed');
    t.is((err?.cause as NodeJS.ErrnoException | undefined)?.code, 'ENOSPC');
  }
  t.is(await store.getSession('s'), undefined);
  t.deepEqual(named('journal.write_failed'), [{ error: 'ENOSPC' }]);
});

test('a commit the faults option refuses is a version conflict that says so', async (t) => {
  const dir = tempDir(t);
  const { store } = await opened(t, { dir, faults: { conflict: () => true } });
  t.deepEqual(await store.commit({ players: [{ state: player(1), expectedVersion: null }] }), {
    ok: false,
    conflict: 'version',
    detail: 'a conflict injected by the faults option',
  });
});

test('an oplog append that fails is logged; the commit, durable in the journal, stands; no checkpoint is cut until the oplog is whole', async (t) => {
  const dir = tempDir(t);
  const faults: FileFaults = { file: 'oplog.jsonl' };
  spyFiles(t, dir, faults);
  const { store, named } = await opened(t, { dir, checkpointBytes: 1 });
  faults.failAfterBytes = 0;
  t.true((await store.commit({ players: [{ state: player(1), expectedVersion: null }], log: run(player(1)) })).ok);
  t.deepEqual(named('oplog.write_failed'), [{ error: 'ENOSPC' }]);
  // The checkpoint due after it cannot make the oplog whole on disk: it is not cut (logged); the next commit goes on.
  t.true((await store.commit({ players: [{ state: player(2), expectedVersion: null }] })).ok);
  t.true(String(named('checkpoint.failed')[0]?.error).includes('ENOSPC'));
  t.is((await store.load(1))?.playerId, 1);
  faults.failAfterBytes = undefined;
  await store.close();
  const b = await FileStorage.open({ dir });
  t.deepEqual(
    (await b.readLog()).map((e) => e.seq),
    [1],
    'the entry the oplog lost is restored from the journal',
  );
  await b.close();
});

// ---- checkpoints -----------------------------------------------------------------

test('a checkpoint is cut when the journal reaches its bound exactly, and logged with its players and seq', async (t) => {
  const size = await (async () => {
    const dir = tempDir(t);
    const { store } = await opened(t, { dir });
    await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
    return store.stats().journalBytes;
  })();
  const dir = tempDir(t);
  const { store, named } = await opened(t, { dir, checkpointBytes: size });
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await store.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await store.close();
  t.deepEqual(
    named('checkpoint').map((d) => d.seq),
    [1, 2],
  );
  t.deepEqual(named('checkpoint')[0], { players: 1, answers: 0, swept: 0, seq: 1 });
});

test('a checkpoint that fails in the background is logged, and the store goes on; its journal is kept for the next', async (t) => {
  const dir = tempDir(t);
  let fail = true;
  const { store, named } = await opened(t, {
    dir,
    checkpointBytes: 1,
    faults: {
      beforeSnapshots: () => {
        if (fail) {
          fail = false;
          throw new Error('disk gone');
        }
      },
    },
  });
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await store.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await store.close();
  t.deepEqual(named('checkpoint.failed'), [{ error: 'Error: disk gone' }]);
  const b = await FileStorage.open({ dir });
  t.deepEqual(await b.playerIds(), [1, 2]);
  await b.close();
});

test('once a checkpoint has written its snapshots, the states it wrote leave the changed set for the bounded cache', async (t) => {
  const dir = tempDir(t);
  const { store } = await opened(t, { dir, cacheSize: 1 });
  for (const id of [1, 2, 3]) await store.commit({ players: [{ state: player(id), expectedVersion: null }] });
  t.is(store.stats().playersInMemory, 3, 'changed, not yet in a snapshot');
  await store.close();
  t.is(store.stats().playersInMemory, 1);
});

test('on its timer, a checkpoint comes for states replayed from a rotated journal, with journal.log empty', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  const b = await FileStorage.open({ dir });
  await b.commit({ players: [{ state: bump(player(1), 6), expectedVersion: 0 }] });
  // b dies in a checkpoint after the journal's rotation: its records are in journal.2.log alone.
  writeFileSync(join(dir, 'journal.2.log'), readFileSync(join(dir, 'journal.log')));
  writeFileSync(join(dir, 'journal.log'), '');
  const next = nextCheckpoint();
  const c = await FileStorage.open({ dir, checkpointIntervalMs: 1, log: next.log });
  t.is(c.stats().journalBytes, 0);
  await next.done;
  t.false(existsSync(join(dir, 'journal.2.log')), 'the checkpoint covered it');
  await c.close();
});

test('on its timer, a checkpoint comes for a journal of session changes alone (no player changed)', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  const next = nextCheckpoint();
  const b = await FileStorage.open({ dir, checkpointIntervalMs: 1, log: next.log });
  await b.commit({ players: [], sessions: [{ key: 's', session: session(1) }] });
  t.is(b.stats().playersInMemory, 0);
  await next.done;
  t.is(b.stats().journalBytes, 0, 'the journal was let go');
  await b.close();
});

// ---- reading every player --------------------------------------------------------

/** Players 1..3 named `name` on disk; 2 and 3 then changed in memory (read there, at once), 1 read from its snapshot. */
const mixed = async (t: ExecutionContext, dir: string) => {
  const s = await onDisk(t, dir, 3);
  for (const id of [2, 3]) await s.store.commit({ players: [{ state: bump(player(id), 1), expectedVersion: 0 }] });
  return s;
};

test('findByName answers the lowest ids, at most `limit`, whichever was read first', async (t) => {
  const dir = tempDir(t);
  const { store } = await mixed(t, dir);
  t.deepEqual(await store.findByName('Tester', 10), [1, 2, 3]);
  t.deepEqual(await store.findByName('Tester', 2), [1, 2]);
  t.deepEqual(await store.findByName('Nobody', 2), []);
});

test('findByName stops reading snapshots once it has found enough', async (t) => {
  const dir = tempDir(t);
  const calls = spyFiles(t, dir);
  const { store } = await onDisk(t, dir, 40);
  const from = calls.length;
  t.deepEqual(await store.findByName('Tester', 1), [1]);
  const reads = calls.slice(from).filter((c) => c.startsWith('readFile players/')).length;
  t.true(reads > 0 && reads < 40, `${reads} snapshots read`);
});

test('a player stored anew while its snapshot was read is found by its new name', async (t) => {
  const dir = tempDir(t);
  const faults: FileFaults = { file: 'players/1/1.json' };
  spyFiles(t, dir, faults);
  const { store } = await onDisk(t, dir, 1);
  const gate = readGate(faults);
  const finding = store.findByName('Renamed', 5);
  await gate.arrived;
  t.true(
    (await store.commit({ players: [{ state: { ...bump(player(1), 1), name: 'Renamed' }, expectedVersion: 0 }] })).ok,
  );
  gate.open();
  t.deepEqual(await finding, [1]);
});

// ---- check and close -------------------------------------------------------------

test('check is null while a file can be written in the directory, else says why', async (t) => {
  const dir = tempDir(t);
  const faults: FileFaults = { file: '.ready' };
  spyFiles(t, dir, faults);
  const { store } = await opened(t, { dir });
  t.is(await store.check(), null);
  t.regex(readFileSync(join(dir, '.ready'), 'utf8'), /^\d{13}\n$/);
  faults.writeError = 'ENOSPC';
  t.is(await store.check(), `cannot write in ${dir}: ENOSPC`);
  await store.close();
  t.is(await store.check(), 'the storage is closed');
});

test('a closed store refuses commits; closing twice is closing once', async (t) => {
  const dir = tempDir(t);
  const calls = spyFiles(t, dir);
  const { store } = await opened(t, { dir });
  await store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await store.close();
  const from = calls.length;
  t.true(calls.includes('close journal.log'));
  await t.throwsAsync(store.commit({ players: [{ state: player(2), expectedVersion: null }] }), {
    instanceOf: StorageError,
    message: 'storage is closed',
  });
  await store.close();
  t.deepEqual(calls.slice(from), [], 'the second close touches no file');
});

test('close waits for the commits in flight, which land', async (t) => {
  const dir = tempDir(t);
  const f = fsyncs();
  const a = await FileStorage.open({ dir, faults: { sync: f.sync } });
  f.hold();
  const pending = a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await f.held();
  const closing = a.close();
  f.release();
  await closing;
  t.true((await pending).ok);
  t.true(existsSync(snapshotPath(dir, 1)), 'the close checkpointed the commit it waited for');
  t.is(statSync(join(dir, 'journal.log')).size, 0);
  const b = await FileStorage.open({ dir });
  t.is((await b.load(1))?.playerId, 1);
  await b.close();
});

test('close checkpoints what changed, and a rotated journal left by a crash; with nothing of either it writes nothing', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  const journal = readFileSync(join(dir, 'journal.log'));
  await a.close();
  t.is(statSync(join(dir, 'journal.log')).size, 0);
  t.true(existsSync(snapshotPath(dir, 1)));
  // Nothing changed: the close writes nothing.
  const calls = spyFiles(t, dir);
  const b = await FileStorage.open({ dir });
  const from = calls.length;
  await b.close();
  // Only the directory let go (its server.pid, dir-holder.ts): read, then removed.
  t.deepEqual(
    calls.slice(from).filter((c) => !c.startsWith('close ') && !c.endsWith(' server.pid')),
    [],
  );
  // A rotated journal the checkpoint covers, left by a crash: the close removes it.
  writeFileSync(join(dir, 'journal.1.log'), journal);
  const c = await FileStorage.open({ dir });
  await c.close();
  t.false(existsSync(join(dir, 'journal.1.log')));
  rmSync(join(dir, 'journal.log'));
});
