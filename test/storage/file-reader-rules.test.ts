// The rules of adapters/storage/file-reader.ts one by one: what a missing file and
// a failing read are; a checkpoint.json without a seq; a try read again when a
// checkpoint moved under it (a rotated journal removed before its read, a journal
// rotated or a checkpoint finished before the re-check), and the error after 20 tries;
// records the checkpoint covers not applied again, a gap in the records; which whole
// states and deltas of a record apply to the player read; and the replay log with
// the journal's entries the oplog lacks. A checkpoint is made to happen exactly
// between two steps of the reader by holding its read of a file (test/_support/fs-spy.ts).
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import { snapshotPath } from '../../adapters/storage/checkpoint.js';
import { FileStorage, type FileStorageOptions } from '../../adapters/storage/file.js';
import { readLogAt, readStoredPlayer } from '../../adapters/storage/file-reader.js';
import { crc32 } from '../../adapters/storage/crc32.js';
import { encodeRecord } from '../../adapters/storage/journal.js';
import type { LogRun, StoredLogEntry } from '../../adapters/storage/replay-log.js';
import { seal } from '../../adapters/storage/sealed.js';
import { StorageError } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { spyFiles, tempDir } from '../_support/fs-spy.js';

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
/** Each player's change is its own: player 1 gains 1 gold a commit, player 2 gains 100, player 3 gains 10,000. */
const bump = (s: PlayerState): PlayerState => ({
  ...s,
  gold: s.gold + 100 ** (s.playerId - 1),
  version: s.version + 1,
});
const json = (s: PlayerState | undefined): string => canonicalJson(s ?? null);

const create = async (s: FileStorage, id: number): Promise<PlayerState> => {
  const p = freshPlayer({ playerId: id, seed: `p${id}` });
  await s.commit({ players: [{ state: p, expectedVersion: null }], log: run(p) });
  return p;
};

/** Commits `n` rounds of one change to each player (in id order); returns their last states. */
const rounds = async (s: FileStorage, ps: Map<number, PlayerState>, n: number): Promise<Map<number, PlayerState>> => {
  for (let i = 0; i < n; i++) {
    for (const [id, p] of [...ps].sort((a, b) => a[0] - b[0])) {
      const next = bump(p);
      const r = await s.commit({ players: [{ state: next, expectedVersion: p.version }], log: run(next) });
      if (!r.ok) throw new Error(r.detail);
      ps.set(id, next);
    }
  }
  return ps;
};

/** A store on `dir`, closed when the test ends (if the test did not). */
const openStore = async (t: ExecutionContext, o: FileStorageOptions): Promise<FileStorage> => {
  const s = await FileStorage.open(o);
  t.teardown(() => s.close());
  return s;
};

/** Players 1 and 2 created and changed twice (records 1 to 6), checkpointed by a close; returns their states. */
const checkpointed = async (t: ExecutionContext, dir: string): Promise<Map<number, PlayerState>> => {
  const s = await FileStorage.open({ dir });
  const ps = new Map([
    [1, await create(s, 1)],
    [2, await create(s, 2)],
  ]);
  await rounds(s, ps, 2);
  await s.close();
  t.is(cpSeq(dir), 6, 'records 1 to 6 checkpointed');
  return ps;
};

/** checkpoint.json's seq. */
const cpSeq = (dir: string): number =>
  (JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8').slice(9)) as { seq: number }).seq;

test('a missing journal.log is no journal (one try, the snapshot as stored); a journal or checkpoint.json that cannot be read is an error, not a missing file', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const ps = await checkpointed(t, dir);
  unlinkSync(join(dir, 'journal.log'));
  const events = spyFiles(t, dir);
  const read = await readStoredPlayer(dir, 1);
  t.is(json(read.state), json(ps.get(1)));
  t.deepEqual(read.journalLog, []);
  t.is(
    events.filter((e) => e === 'readFile checkpoint.json').length,
    2,
    'one try: checkpoint.json read at its start and at its re-check',
  );

  writeFileSync(join(dir, 'journal.log'), '');
  const faults: { file?: string; readError?: string } = { file: 'journal.log', readError: 'EIO' };
  spyFiles(t, dir, faults);
  await t.throwsAsync(readStoredPlayer(dir, 1), { code: 'EIO', message: /^EIO: the read failed$/ });
  faults.file = 'checkpoint.json';
  await t.throwsAsync(readStoredPlayer(dir, 1), { code: 'EIO', message: /^EIO: the read failed$/ });
});

test('checkpoint.json that is a directory (EISDIR) is thrown, not read as no checkpoint', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  mkdirSync(join(dir, 'checkpoint.json'));
  await t.throwsAsync(readStoredPlayer(dir, 1), { code: 'EISDIR' });
});

test('checkpoint.json that names no seq, or a seq that is not an integer, is refused by name', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const path = join(dir, 'checkpoint.json');
  for (const cp of [{ index: {} }, { seq: 1.5, index: {} }, { seq: '3', index: {} }, null]) {
    writeFileSync(path, seal(JSON.stringify(cp)));
    await t.throwsAsync(
      readStoredPlayer(dir, 1),
      { instanceOf: StorageError, message: `${path} names no seq` },
      JSON.stringify(cp),
    );
  }
});

test('a rotated journal a checkpoint removes between the listing and its read: read again, then the state the store holds', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const ps = await checkpointed(t, dir);
  let release = (): void => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  let finished = (): void => {};
  const checkpointDone = new Promise<void>((r) => {
    finished = r;
  });
  const s = await openStore(t, {
    dir,
    checkpointBytes: 1,
    faults: { beforeSnapshots: () => held },
    log: (event) => {
      if (event === 'checkpoint') finished();
    },
  });
  t.teardown(() => release());
  await rounds(s, ps, 1);
  const rotated = readdirSync(dir).filter((f) => /^journal\.\d+\.log$/.test(f));
  t.deepEqual(rotated, ['journal.7.log'], 'the checkpoint of record 7 is held: its journal rotated');
  let openGate = (): void => {};
  const faults = {
    file: 'journal.7.log',
    readGate: new Promise<void>((r) => {
      openGate = r;
    }) as Promise<void> | undefined,
    onReadHeld: () => {
      faults.readGate = undefined;
      release();
      void checkpointDone.then(() => openGate());
    },
  };
  const events = spyFiles(t, dir, faults);
  const read = await readStoredPlayer(dir, 1);
  t.false(existsSync(join(dir, 'journal.7.log')), 'the checkpoint finished while the reader held its read');
  t.is(json(read.state), json(ps.get(1)));
  t.is(json(read.state), json(await s.load(1)));
  t.is(
    events.filter((e) => e === 'readFile journal.log').length,
    1,
    'the try that found the rotated journal gone stopped there; the next read journal.log',
  );
});

test('a rotated journal that is gone each time it is read: after 20 tries (no more) the error names the player, the directory, the tries and the reason', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  await checkpointed(t, dir);
  const rotated = join(dir, 'journal.6.log');
  writeFileSync(rotated, '');
  let reads = 0;
  // Each try: checkpoint.json read first (the rotated journal put back before the listing), the rotated journal gone as it is read.
  spyFiles(t, dir, {
    file: 'journal.6.log',
    readGate: Promise.resolve(),
    onReadHeld: () => {
      reads++;
      unlinkSync(rotated);
    },
  });
  spyFiles(t, dir, {
    file: 'checkpoint.json',
    readGate: Promise.resolve(),
    onReadHeld: () => {
      if (!existsSync(rotated)) writeFileSync(rotated, '');
    },
  });
  await t.throwsAsync(readStoredPlayer(dir, 1), {
    instanceOf: StorageError,
    message: `player 1 could not be read from ${dir} in 20 tries: ${rotated} was removed (a checkpoint finished)`,
  });
  t.is(reads, 20, 'tried 20 times');
});

test("a journal rotated after each listing: after 20 tries the error names the re-check's reason", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  await checkpointed(t, dir);
  const rotated = join(dir, 'journal.99.log');
  let tries = 0;
  // Each try: the rotated journal gone when checkpoint.json is read (before the listing), there again when journal.log is read (after it).
  spyFiles(t, dir, {
    file: 'checkpoint.json',
    readGate: Promise.resolve(),
    onReadHeld: () => {
      tries++;
      rmSync(rotated, { force: true });
    },
  });
  spyFiles(t, dir, { file: 'journal.log', readGate: Promise.resolve(), onReadHeld: () => writeFileSync(rotated, '') });
  await t.throwsAsync(readStoredPlayer(dir, 1), {
    instanceOf: StorageError,
    message: `player 1 could not be read from ${dir} in 20 tries: a checkpoint began or finished`,
  });
  t.is(tries, 20, 'checkpoint.json read once a try (the re-check stopped at the listing)');
});

test('a journal rotated after the listing (a checkpoint began): read again, not the snapshot without the rotated records', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const ps = await checkpointed(t, dir);
  let release = (): void => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  let began = (): void => {};
  const s = await openStore(t, {
    dir,
    checkpointBytes: 1,
    faults: {
      beforeSnapshots: async () => {
        began();
        await held;
      },
    },
  });
  t.teardown(() => release());
  let openGate = (): void => {};
  let committed: Promise<unknown> = Promise.resolve();
  const p1 = bump(ps.get(1) as PlayerState);
  const faults = {
    file: 'journal.log',
    readGate: new Promise<void>((r) => {
      openGate = r;
    }) as Promise<void> | undefined,
    onReadHeld: () => {
      faults.readGate = undefined;
      // One commit (record 7), rotated away by the checkpoint it starts, which is held before its snapshots.
      began = openGate;
      committed = s.commit({ players: [{ state: p1, expectedVersion: p1.version - 1 }], log: run(p1) });
    },
  };
  spyFiles(t, dir, faults);
  const read = await readStoredPlayer(dir, 1);
  t.like(await committed, { ok: true });
  t.deepEqual(
    readdirSync(dir).filter((f) => /^journal\.\d+\.log$/.test(f)),
    ['journal.7.log'],
  );
  t.is(cpSeq(dir), 6, 'checkpoint.json is as it was');
  t.is(read.state?.version, p1.version, 'the rotated record is read');
  t.is(json(read.state), json(p1));
  t.is(json(read.state), json(await s.load(1)));
  t.deepEqual(
    read.journalLog.map((e) => e.seq),
    [7],
  );
});

test('a checkpoint that finished after the listing (checkpoint.json moved, no rotated journal left): read again, not the old snapshot', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const ps = await checkpointed(t, dir);
  const before = json(ps.get(1));
  const s = await FileStorage.open({ dir });
  await rounds(s, ps, 1);
  let openGate = (): void => {};
  let closed: Promise<void> = Promise.resolve();
  const faults = {
    file: 'journal.log',
    readGate: new Promise<void>((r) => {
      openGate = r;
    }) as Promise<void> | undefined,
    onReadHeld: () => {
      faults.readGate = undefined;
      closed = s.close().then(() => openGate());
    },
  };
  spyFiles(t, dir, faults);
  const read = await readStoredPlayer(dir, 1);
  await closed;
  t.is(cpSeq(dir), 8, 'the close checkpointed records 7 and 8');
  t.deepEqual(
    readdirSync(dir).filter((f) => /^journal\.\d+\.log$/.test(f)),
    [],
  );
  t.not(json(read.state), before);
  t.is(json(read.state), json(ps.get(1)));
  t.deepEqual(read.journalLog, []);
});

/**
 * Players 1 and 2 checkpointed at seq 6; then player 3 created and all changed
 * once (records 7 to 10) and checkpointed by a close. Returns the states, the
 * rotated journal of that checkpoint (journal.10.log's bytes) and checkpoint.json as
 * it was before it (seq 6): put back, they make the directory as a checkpoint
 * leaves it before it finishes.
 */
const leftovers = async (t: ExecutionContext, dir: string) => {
  const ps = await checkpointed(t, dir);
  const oldCheckpoint = readFileSync(join(dir, 'checkpoint.json'));
  let rotated: Buffer | undefined;
  const s = await FileStorage.open({
    dir,
    faults: {
      beforeSnapshots: () => {
        rotated = readFileSync(join(dir, 'journal.10.log'));
      },
    },
  });
  ps.set(3, await create(s, 3));
  await rounds(s, ps, 1);
  await s.close();
  t.is(cpSeq(dir), 10);
  return { ps, rotated: rotated as Buffer, oldCheckpoint };
};

test('records the checkpoint covers (a rotated journal not yet removed) are not applied again: the log and the states recorded are those after it', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const { ps, rotated } = await leftovers(t, dir);
  writeFileSync(join(dir, 'journal.10.log'), rotated);
  const s = await openStore(t, { dir });
  await rounds(s, ps, 1);
  t.true(existsSync(join(dir, 'journal.10.log')), 'the covered journal is still there');
  for (const id of [1, 2, 3]) {
    const read = await readStoredPlayer(dir, id);
    t.is(json(read.state), json(ps.get(id)), `player ${id}`);
    t.deepEqual(
      read.journalLog.map((e) => e.seq),
      [11, 12, 13],
      'the entries after seq 10 only',
    );
    t.deepEqual([...read.recorded.keys()], [10 + id], `player ${id}'s entry after the checkpoint`);
    t.is(json(read.recorded.get(10 + id)), json(ps.get(id)));
  }
});

test("a snapshot past the records after checkpoint.json's seq (a checkpoint still writing): the deltas it holds are skipped, not refused", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const { ps, rotated, oldCheckpoint } = await leftovers(t, dir);
  writeFileSync(join(dir, 'journal.10.log'), rotated);
  writeFileSync(join(dir, 'checkpoint.json'), oldCheckpoint);
  t.is(cpSeq(dir), 6);
  for (const id of [1, 2, 3]) {
    const read = await readStoredPlayer(dir, id);
    t.is(json(read.state), json(ps.get(id)), `player ${id}: the snapshot`);
    t.deepEqual(
      read.journalLog.map((e) => e.seq),
      [7, 8, 9, 10],
    );
  }
});

test("a snapshot past some of the records after checkpoint.json's seq: the entries before it have no state recorded (it is not known), the last its own", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const ps = await checkpointed(t, dir);
  const oldCheckpoint = readFileSync(join(dir, 'checkpoint.json'));
  let rotated: Buffer | undefined;
  const s = await FileStorage.open({
    dir,
    faults: {
      beforeSnapshots: () => {
        rotated = readFileSync(join(dir, 'journal.10.log'));
      },
    },
  });
  // Entries 7 to 10: each player changed twice.
  await rounds(s, ps, 2);
  await s.close();
  writeFileSync(join(dir, 'journal.10.log'), rotated as Buffer);
  writeFileSync(join(dir, 'checkpoint.json'), oldCheckpoint);
  for (const id of [1, 2]) {
    const read = await readStoredPlayer(dir, id);
    t.is(json(read.state), json(ps.get(id)), `player ${id}: the snapshot`);
    t.deepEqual(
      [...read.recorded.keys()],
      [8 + id],
      `player ${id}: entry ${6 + id} made the version before the snapshot's`,
    );
    t.is(json(read.recorded.get(8 + id)), json(ps.get(id)));
  }
});

test("each player's deltas apply to it alone (another player's delta from the same version is skipped)", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const s = await openStore(t, { dir });
  const ps = new Map([
    [1, await create(s, 1)],
    [2, await create(s, 2)],
  ]);
  const gold = (ps.get(2) as PlayerState).gold;
  await rounds(s, ps, 3);
  t.is((ps.get(2) as PlayerState).gold, gold + 300);
  for (const id of [1, 2]) {
    const read = await readStoredPlayer(dir, id);
    t.is(json(read.state), json(ps.get(id)), `player ${id}`);
    t.is(json(read.state), json(await s.load(id)));
  }
});

/** Writes a journal file of records holding whole states. */
const journalOf = (path: string, records: ReadonlyArray<{ seq: number; states: PlayerState[] }>): void =>
  writeFileSync(
    path,
    records
      .map((r) =>
        encodeRecord(
          { seq: r.seq, sessions: [] },
          r.states.map((state) => ({ kind: 'whole' as const, state })),
        ),
      )
      .join(''),
  );
const at = (id: number, version: number): PlayerState => ({
  ...freshPlayer({ playerId: id, seed: `p${id}` }),
  version,
  gold: 1000 * id + version,
});
const snapshot = (dir: string, s: PlayerState): void => {
  mkdirSync(join(snapshotPath(dir, s.playerId), '..'), { recursive: true });
  writeFileSync(snapshotPath(dir, s.playerId), seal(canonicalJson(s)));
};

test("a record's whole state replaces the snapshot only for its own player and only when newer", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  snapshot(dir, at(1, 2));
  snapshot(dir, at(2, 1));
  journalOf(join(dir, 'journal.log'), [{ seq: 1, states: [at(1, 1), at(2, 3)] }]);
  t.is(
    json((await readStoredPlayer(dir, 1)).state),
    json(at(1, 2)),
    "player 1: its snapshot (version 2) is past the record's (1); player 2's is not its",
  );
  t.is(
    json((await readStoredPlayer(dir, 2)).state),
    json(at(2, 3)),
    "player 2: the record's (version 3) is past its snapshot's (1)",
  );
  t.is((await readStoredPlayer(dir, 3)).state, undefined, 'player 3: none, though the record holds others');
});

test("a record's whole state that does not decode is refused naming the record", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const body = Buffer.from(JSON.stringify({ seq: 1, players: [{ ...at(1, 0), gold: 'a lot' }], sessions: [] }), 'utf8');
  writeFileSync(join(dir, 'journal.log'), `${crc32(body).toString(16).padStart(8, '0')} ${body.toString('utf8')}\n`);
  await t.throwsAsync(readStoredPlayer(dir, 2), {
    instanceOf: StorageError,
    message: 'journal record 1: a player state does not decode',
  });
});

test('a gap in the records after the checkpoint: read again, then refused naming the player, the directory, 20 tries and the gap', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  journalOf(join(dir, 'journal.2.log'), [
    { seq: 1, states: [at(1, 0)] },
    { seq: 2, states: [at(1, 1)] },
  ]);
  journalOf(join(dir, 'journal.log'), [{ seq: 4, states: [at(1, 3)] }]);
  const events = spyFiles(t, dir);
  await t.throwsAsync(readStoredPlayer(dir, 1), {
    instanceOf: StorageError,
    message: `player 1 could not be read from ${dir} in 20 tries: the journal records after seq 0 are not all there`,
  });
  t.is(events.filter((e) => e === 'readFile journal.log').length, 20, '20 tries');
});

test("a delta from another version than the state read: refused after 20 tries naming the versions (the state's, or none)", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const ps = await checkpointed(t, dir);
  t.is((ps.get(1) as PlayerState).version, freshPlayer().version + 2);
  const older = readFileSync(snapshotPath(dir, 1));
  const s1 = await FileStorage.open({ dir });
  await rounds(s1, ps, 1);
  await s1.close();
  const s = await openStore(t, { dir });
  await rounds(s, ps, 1);
  const v = freshPlayer().version;
  t.regex(
    readFileSync(join(dir, 'journal.log'), 'utf8'),
    new RegExp(`"deltas":\\[\\{"base":${v + 3},.*"playerId":1,.*"seq":9,`),
  );
  // Player 1's snapshot put back one version: record 9's delta is from the version after it.
  writeFileSync(snapshotPath(dir, 1), older);
  await t.throwsAsync(readStoredPlayer(dir, 1), {
    instanceOf: StorageError,
    message: `player 1 could not be read from ${dir} in 20 tries: journal record 9: player 1's delta is from version ${v + 3}, the state is at ${v + 2}`,
  });
  unlinkSync(snapshotPath(dir, 1));
  await t.throwsAsync(readStoredPlayer(dir, 1), {
    instanceOf: StorageError,
    message: `player 1 could not be read from ${dir} in 20 tries: journal record 9: player 1's delta is from version ${v + 3}, the state is at none`,
  });
});

/** Players 1 and 2 created and changed twice (log entries 1 to 6); the store closed without a checkpoint of its journal. */
const logged = async (
  t: ExecutionContext,
  dir: string,
): Promise<{ all: StoredLogEntry[]; journalLog: ReadonlyArray<StoredLogEntry> }> => {
  const s = await FileStorage.open({ dir });
  const ps = new Map([
    [1, await create(s, 1)],
    [2, await create(s, 2)],
  ]);
  await rounds(s, ps, 2);
  const all = await s.readLog();
  const { journalLog } = await readStoredPlayer(dir, 1);
  await s.close();
  t.deepEqual(
    all.map((e) => e.seq),
    [1, 2, 3, 4, 5, 6],
  );
  t.deepEqual(journalLog, all, 'the journal held every entry');
  return { all, journalLog };
};

test("the replay log: with the oplog whole, the oplog's entries (the journal's are not added twice), filtered", async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const { all, journalLog } = await logged(t, dir);
  t.deepEqual(await readLogAt(dir, journalLog), all);
  t.deepEqual(
    await readLogAt(dir, journalLog, { players: [2] }),
    all.filter((e) => e.playerIds.includes(2)),
  );
  t.deepEqual(
    await readLogAt(dir, [], { players: [1] }),
    all.filter((e) => e.playerIds.includes(1)),
  );
});

test('the replay log: entries the oplog lacks are taken from the journal, filtered, each in its place by seq', async (t) => {
  const dir = tempDir(t, 'hoshi-reader-');
  const { all, journalLog } = await logged(t, dir);
  const lines = readFileSync(join(dir, 'oplog.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  t.is(lines.length, 6);
  // The oplog behind the journal (its last two lines not written), and without its index.
  writeFileSync(
    join(dir, 'oplog.jsonl'),
    lines
      .slice(0, 4)
      .map((l) => `${l}\n`)
      .join(''),
  );
  rmSync(join(dir, 'oplog.idx'), { force: true });
  t.deepEqual(await readLogAt(dir, journalLog), all);
  t.deepEqual(
    await readLogAt(dir, journalLog, { players: [1] }),
    all.filter((e) => e.playerIds.includes(1)),
  );
  t.deepEqual(
    await readLogAt(dir, [], { players: [1] }),
    all.slice(0, 4).filter((e) => e.playerIds.includes(1)),
  );
  // The journal's entries handed over in another order: still in seq order.
  t.deepEqual(
    (await readLogAt(dir, [...journalLog].reverse())).map((e) => e.seq),
    [1, 2, 3, 4, 5, 6],
  );
  // A line lost from the middle (an oplog edited by hand): the journal's entry goes back in its place.
  writeFileSync(join(dir, 'oplog.jsonl'), [...lines.slice(0, 2), ...lines.slice(3)].map((l) => `${l}\n`).join(''));
  t.deepEqual(
    (await readLogAt(dir, journalLog)).map((e) => e.seq),
    [1, 2, 3, 4, 5, 6],
  );
  t.deepEqual(await readLogAt(dir, journalLog), all);
});
