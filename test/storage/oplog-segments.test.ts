// The replay log's segments and retention on the JSON-file store (issue 36): the live
// oplog.jsonl is sealed into oplog/<firstSeq>.jsonl at a checkpoint (by size or by
// age), the log reads across segments (whole, by player, beside the store, after a
// restart), retention moves exactly the segments whose newest entry is past the
// cutoff to oplog-archive/ and nothing newer, and a crash in the middle of a rotation
// or an archive leaves a store that opens with nothing lost. Segments are made by
// closing the store (its last checkpoint seals the live segment), time by the `at`
// of the entries and an injected clock: nothing waits on the machine's speed.
import test, { type ExecutionContext } from 'ava';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { FileStorage, type FileStorageOptions } from '../../adapters/storage/file.js';
import { endEntryOf } from '../../adapters/storage/oplog.js';
import { readLogAt } from '../../adapters/storage/file-reader.js';
import { parseIndex } from '../../adapters/storage/oplog-index.js';
import { archiveName, listArchives, readArchives } from '../../adapters/storage/oplog-archive.js';
import {
  keptFromAt,
  listSegments,
  OplogSegments,
  readSegments,
  segmentName,
} from '../../adapters/storage/oplog-segments.js';
import type { LogRun, StoredLogEntry } from '../../adapters/storage/replay-log.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { spyFiles, tempDir, type FileFaults } from '../_support/fs-spy.js';

const DAY = 86_400_000;
const T0 = 1_800_000_000_000;

/** Players' states as the test moves them, and a commit of each change with its log entry at `at`. */
const game = () => {
  const states = new Map<number, PlayerState>();
  const run = (p: PlayerState, at: number, others: number[] = []): LogRun => ({
    kind: 'op',
    at,
    masterHash: 'm',
    op: 'loginPlayer',
    playerId: p.playerId,
    request: {},
    seed: '',
    others,
  });
  return {
    /** Creates the player if new, else changes it (and `with` too: an entry of two players). */
    async step(s: FileStorage, id: number, at: number, withId?: number): Promise<void> {
      const ids = withId === undefined ? [id] : [id, withId];
      const before = ids.map((x) => states.get(x));
      const next = ids.map((x, i) => {
        const b = before[i];
        return b === undefined
          ? freshPlayer({ playerId: x, seed: `p${x}` })
          : { ...b, gold: b.gold + 1, version: b.version + 1 };
      });
      const r = await s.commit({
        players: next.map((p, i) => ({ state: p, expectedVersion: before[i]?.version ?? null })),
        log: run(next[0] as PlayerState, at, ids.slice(1)),
      });
      if (!r.ok) throw new Error(r.detail);
      next.forEach((p) => states.set(p.playerId, p));
    },
  };
};

/** A store with its log events, closed when the test ends unless the test closed it. */
const openStore = async (t: ExecutionContext, o: FileStorageOptions) => {
  const events: Array<[string, Record<string, unknown>]> = [];
  const store = await FileStorage.open({
    ...o,
    log: (e, d) => {
      events.push([e, d]);
      o.log?.(e, d);
    },
  });
  t.teardown(() => store.close());
  return { store, events, named: (name: string) => events.filter(([e]) => e === name).map(([, d]) => d) };
};

/**
 * A directory whose log is in segments: each round of `days` (an entry per player,
 * and one of players 1 and 3 together, at that day) is written by a store opened for
 * it and closed, which seals it (oplogSegmentBytes 1). Then a live segment of `live`
 * entries at day `liveDay` (left open unless `close`). Returns every entry.
 */
const segmented = async (
  t: ExecutionContext,
  days: number[],
  liveDay = 100,
  opts: Partial<FileStorageOptions> = {},
) => {
  const dir = tempDir(t, 'hoshi-segments-');
  const g = game();
  for (const d of days) {
    const s = await FileStorage.open({ dir, oplogSegmentBytes: 1, ...opts });
    for (const id of [1, 2, 3]) await g.step(s, id, T0 + d * DAY);
    await g.step(s, 1, T0 + d * DAY + 1, 3);
    await s.close();
  }
  const s = await FileStorage.open({ dir, ...opts });
  await g.step(s, 2, T0 + liveDay * DAY);
  const all = await s.readLog();
  await s.close();
  return { dir, all, g };
};

const seqs = (es: ReadonlyArray<StoredLogEntry>) => es.map((e) => e.seq);
const of = (es: ReadonlyArray<StoredLogEntry>, ...ids: number[]) =>
  es.filter((e) => e.playerIds.some((id) => ids.includes(id)));
const files = (dir: string, sub: string) => (existsSync(join(dir, sub)) ? readdirSync(join(dir, sub)).sort() : []);

// ---- the ends of a segment ---------------------------------------------------------

test("endEntryOf reads a file's first or last whole entry from that end, in growing chunks; none in an empty file or one without a whole line", async (t) => {
  const dir = tempDir(t, 'hoshi-segments-');
  const line = (seq: number, pad = 0) => `${JSON.stringify({ seq, playerIds: [1], pad: 'x'.repeat(pad) })}\n`;
  const path = join(dir, 'seg.jsonl');
  // A last line of 300 kB: longer than the first chunks read from the end.
  writeFileSync(path, line(1) + line(2, 100) + line(3, 300_000));
  t.is((await endEntryOf(path, 'first'))?.seq, 1);
  t.is((await endEntryOf(path, 'last'))?.seq, 3);
  // A first line of 300 kB, and a torn tail after the last whole line.
  writeFileSync(path, `${line(4, 300_000)}${line(5)}{"seq":6,"cut`);
  t.is((await endEntryOf(path, 'first'))?.seq, 4);
  t.is((await endEntryOf(path, 'last'))?.seq, 5);
  for (const text of ['', '{"seq":1,"cut']) {
    writeFileSync(path, text);
    t.is(await endEntryOf(path, 'first'), undefined);
    t.is(await endEntryOf(path, 'last'), undefined);
  }
  await t.throwsAsync(endEntryOf(join(dir, 'none.jsonl'), 'last'), { code: 'ENOENT' });
});

// ---- rotation ----------------------------------------------------------------------

test('a checkpoint seals the live oplog into oplog/<firstSeq>.jsonl with its index once it holds oplogSegmentBytes; the log reads across the segments, whole and by player, after a restart and beside the store', async (t) => {
  const { dir, all } = await segmented(t, [1, 2, 3]);
  t.deepEqual(
    seqs(all),
    Array.from({ length: 13 }, (_, i) => i + 1),
  );
  // Three sealed segments of four entries; the live one holds the 13th (below 64 MiB: not sealed at close).
  t.deepEqual(
    files(dir, 'oplog'),
    [1, 5, 9].flatMap((n) => [segmentName(n), segmentName(n).replace('.jsonl', '.idx')]).sort(),
  );
  t.is(segmentName(5), '000000000005.jsonl');
  for (const seg of await listSegments(dir)) {
    const bytes = readFileSync(seg.path);
    const idx = parseIndex(readFileSync(seg.path.replace(/\.jsonl$/, '.idx'))).entries;
    t.deepEqual(
      idx.map((x) => x.seq),
      [seg.first, seg.first + 1, seg.first + 2, seg.first + 3],
      'the index of its own lines',
    );
    for (const x of idx)
      t.is((JSON.parse(bytes.subarray(x.offset, x.offset + x.length).toString('utf8')) as StoredLogEntry).seq, x.seq);
  }
  t.deepEqual(
    readFileSync(join(dir, 'oplog.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as StoredLogEntry).seq),
    [13],
  );
  const s = await FileStorage.open({ dir });
  t.teardown(() => s.close());
  t.deepEqual(await s.readLog(), all);
  for (const id of [1, 2, 3]) t.deepEqual(await s.readLog({ players: [id] }), of(all, id), `player ${id}`);
  t.deepEqual(await s.readLog({ players: [2, 3] }), of(all, 2, 3));
  // Beside the open store, as files.
  t.deepEqual(await readLogAt(dir, []), all);
  t.deepEqual(await readLogAt(dir, [], { players: [3] }), of(all, 3));
  t.is(await keptFromAt(dir), 1);
  t.like(s.stats(), { replayLogEntries: 13 });
  // Commits go on after the segments, numbered on.
  const next = await s.readLog({ players: [2] });
  t.is(next.at(-1)?.seq, 13);
});

test("the kept log's bytes are its segments' and indexes', sealed and live", async (t) => {
  const { dir } = await segmented(t, [1, 2]);
  const s = await FileStorage.open({ dir });
  t.teardown(() => s.close());
  const onDisk = [
    ...files(dir, 'oplog').map((f) => join(dir, 'oplog', f)),
    join(dir, 'oplog.jsonl'),
    join(dir, 'oplog.idx'),
  ].reduce((n, p) => n + statSync(p).size, 0);
  t.like(s.stats(), { replayLogBytes: onDisk, replayLogEntries: 9 });
});

test('by age: the live segment is sealed once its first entry is oplogSegmentAgeMs old by the clock, not a millisecond before', async (t) => {
  const dir = tempDir(t, 'hoshi-segments-');
  const g = game();
  let now = T0;
  const opts = { dir, oplogSegmentAgeMs: DAY, clock: () => now };
  const a = await FileStorage.open(opts);
  await g.step(a, 1, T0);
  now = T0 + DAY - 1;
  await a.close();
  t.deepEqual(files(dir, 'oplog'), [], 'a day less a millisecond: not sealed');
  const b = await FileStorage.open(opts);
  await g.step(b, 1, T0 + DAY);
  now = T0 + DAY;
  await b.close();
  t.deepEqual(
    files(dir, 'oplog'),
    ['000000000001.idx', segmentName(1)],
    'its first entry a day old: sealed, with both entries',
  );
  t.is(readFileSync(join(dir, 'oplog.jsonl'), 'utf8'), '');
});

test('a checkpoint with no entry in the live segment (none yet, or none since the last seal) seals nothing', async (t) => {
  // A player committed without a log entry: the close checkpoints it, and finds the live segment as it was.
  const noEntry = async (dir: string, id: number) => {
    const s = await FileStorage.open({ dir, oplogSegmentBytes: 1 });
    t.true(
      (await s.commit({ players: [{ state: freshPlayer({ playerId: id, seed: `x${id}` }), expectedVersion: null }] }))
        .ok,
    );
    await s.close();
  };
  const dir = tempDir(t, 'hoshi-segments-');
  await noEntry(dir, 50);
  t.deepEqual(files(dir, 'oplog'), []);
  // Entry 5 live: the first checkpoint seals it, the next finds the live segment empty.
  const { dir: d2 } = await segmented(t, [1]);
  await noEntry(d2, 50);
  await noEntry(d2, 51);
  t.deepEqual(files(d2, 'oplog'), ['000000000001.idx', segmentName(1), '000000000005.idx', segmentName(5)]);
});

test('a rotation that cannot be made (a file named oplog in the way) is logged oplog.rotate_failed; the checkpoint and the log go on, and the next one seals', async (t) => {
  const dir = tempDir(t, 'hoshi-segments-');
  const g = game();
  const { store, named } = await openStore(t, { dir, oplogSegmentBytes: 1 });
  writeFileSync(join(dir, 'oplog'), 'in the way');
  await g.step(store, 1, T0);
  await g.step(store, 2, T0);
  await store.close();
  t.is(named('oplog.rotate_failed').length, 1);
  t.regex(String(named('oplog.rotate_failed')[0]?.['error']), /EEXIST|ENOTDIR/);
  t.is(named('checkpoint').length, 1, 'the checkpoint was written');
  t.is(readFileSync(join(dir, 'oplog'), 'utf8'), 'in the way', 'nothing renamed over it');
  unlinkSync(join(dir, 'oplog'));
  const again = await openStore(t, { dir, oplogSegmentBytes: 1 });
  t.deepEqual(seqs(await again.store.readLog()), [1, 2]);
  await g.step(again.store, 1, T0);
  await again.store.close();
  t.deepEqual(files(dir, 'oplog'), ['000000000001.idx', segmentName(1)]);
  t.like(again.named('oplog.rotated')[0], { segment: join(dir, 'oplog', segmentName(1)), firstSeq: 1, lastSeq: 3 });
});

test('a live segment is never renamed over a segment of the same name: the rotation is refused and logged, the live segment goes on', async (t) => {
  const dir = tempDir(t, 'hoshi-segments-');
  mkdirSync(join(dir, 'oplog'));
  writeFileSync(join(dir, 'oplog', segmentName(1)), '');
  const g = game();
  const { store, named } = await openStore(t, { dir, oplogSegmentBytes: 1 });
  await g.step(store, 1, T0);
  await store.close();
  t.regex(String(named('oplog.rotate_failed')[0]?.['error']), /exists already: the live oplog is not renamed over it/);
  t.is(readFileSync(join(dir, 'oplog', segmentName(1)), 'utf8'), '');
  t.deepEqual(seqs(await readSegments(dir)), [1]);
});

// ---- crashes in a rotation ---------------------------------------------------------

/** The directory's files as a crash leaves them: a copy taken while the store is open. */
const crashCopy = (t: ExecutionContext, dir: string): string => {
  const copy = tempDir(t, 'hoshi-segments-crash-');
  cpSync(dir, copy, { recursive: true });
  return copy;
};

test("a crash between the rotation's two renames (oplog.jsonl sealed, its index left behind): the store opens with nothing lost, the segment's index rebuilt, the stray one emptied", async (t) => {
  const { dir, all } = await segmented(t, [1]);
  // Entry 5 is live; seal it by hand as far as the first rename.
  mkdirSync(join(dir, 'oplog'), { recursive: true });
  renameSync(join(dir, 'oplog.jsonl'), join(dir, 'oplog', segmentName(5)));
  const { store } = await openStore(t, { dir });
  t.deepEqual(await store.readLog(), all);
  t.deepEqual(await store.readLog({ players: [2] }), of(all, 2));
  t.deepEqual(
    parseIndex(readFileSync(join(dir, 'oplog', '000000000005.idx'))).entries.map((x) => x.seq),
    [5],
    'rebuilt from the segment',
  );
  t.is(readFileSync(join(dir, 'oplog.idx'), 'latin1'), '', 'the index left behind does not fit the new live segment');
  await game().step(store, 9, T0);
  t.deepEqual(seqs(await store.readLog()), [...seqs(all), 6], 'numbered on from the sealed segments');
});

test('a crash right after a rotation, with the journal still holding the sealed entries: none is appended twice', async (t) => {
  const dir = tempDir(t, 'hoshi-segments-');
  const g = game();
  const s = await FileStorage.open({ dir });
  t.teardown(() => s.close());
  for (const id of [1, 2, 3]) await g.step(s, id, T0);
  // The crash: the journal holds the three records (no checkpoint yet); the oplog was sealed, no live file made.
  const copy = crashCopy(t, dir);
  mkdirSync(join(copy, 'oplog'));
  renameSync(join(copy, 'oplog.jsonl'), join(copy, 'oplog', segmentName(1)));
  renameSync(join(copy, 'oplog.idx'), join(copy, 'oplog', '000000000001.idx'));
  const { store } = await openStore(t, { dir: copy });
  t.deepEqual(await store.readLog(), await s.readLog());
  t.is(
    readFileSync(join(copy, 'oplog.jsonl'), 'utf8'),
    '',
    "the journal's entries are in the segment: not appended again",
  );
  await g.step(store, 2, T0);
  t.deepEqual(seqs(await store.readLog()), [1, 2, 3, 4]);
});

test('a rotation under a reader beside the store (between its listing and its read of the live segment): the reader still reads every entry once', async (t) => {
  const { dir, all } = await segmented(t, [1]);
  const faults: FileFaults = { file: 'oplog.idx' };
  spyFiles(t, dir, faults);
  let held = (): void => {};
  const reached = new Promise<void>((r) => {
    held = r;
  });
  let release = (): void => {};
  faults.readGate = new Promise<void>((r) => {
    release = r;
  });
  faults.onReadHeld = held;
  // The filtered read reads the live segment's index first: held there.
  const reading = readLogAt(dir, [], { players: [2] });
  await reached;
  faults.readGate = undefined;
  const s = await FileStorage.open({ dir, oplogSegmentBytes: 1 });
  await game().step(s, 9, T0);
  await s.close();
  t.true(existsSync(join(dir, 'oplog', segmentName(5))), 'the live segment was sealed meanwhile');
  release();
  t.deepEqual(await reading, of(all, 2));
});

// ---- retention ---------------------------------------------------------------------

test('retention archives exactly the segments whose newest entry is older than the cutoff, oldest first, and nothing newer; oplog.archived says what moved', async (t) => {
  // Segments of days 1, 2, 3 (entries 1–4, 5–8, 9–12); the live one of day 10.
  const { dir, all } = await segmented(t, [1, 2, 3], 10);
  const segBytes = (first: number) =>
    statSync(join(dir, 'oplog', segmentName(first))).size +
    statSync(join(dir, 'oplog', segmentName(first).replace('.jsonl', '.idx'))).size;
  const moved = [segBytes(1), segBytes(5)];
  const kept = [readFileSync(join(dir, 'oplog', segmentName(1))), readFileSync(join(dir, 'oplog', segmentName(5)))];
  // 90 days kept, now day 92 + 2 ms: the cutoff is day 2 + 2 ms; day 2's last entry (day 2 + 1 ms) is before it, day 3's is not.
  const now = T0 + 92 * DAY + 2;
  const { store, named } = await openStore(t, { dir, replayLogRetentionMs: 90 * DAY, clock: () => now });
  const before = store.stats().replayLogBytes ?? 0;
  const got = await store.archiveLog();
  t.deepEqual(
    got.map((m) => [m.first, m.last]),
    [
      [1, 4],
      [5, 8],
    ],
  );
  t.deepEqual(files(dir, ARCHIVE), [archiveName(1, 4), archiveName(5, 8)]);
  t.is(archiveName(1, 4), '000000000001-000000000004.jsonl.gz');
  t.deepEqual(files(dir, 'oplog'), ['000000000009.idx', segmentName(9)]);
  // Each archive is its segment's bytes, gzipped.
  t.deepEqual(gunzipSync(readFileSync(join(dir, ARCHIVE, archiveName(1, 4)))), kept[0]);
  t.deepEqual(gunzipSync(readFileSync(join(dir, ARCHIVE, archiveName(5, 8)))), kept[1]);
  t.deepEqual(
    await store.readLog(),
    all.filter((e) => (e.seq ?? 0) >= 9),
  );
  t.deepEqual(
    await store.readLog({ players: [1] }),
    of(all, 1).filter((e) => (e.seq ?? 0) >= 9),
  );
  t.like(store.stats(), { replayLogEntries: 5, replayLogBytes: before - moved[0]! - moved[1]! });
  t.deepEqual(named('oplog.archived'), [
    {
      segments: 2,
      firstSeq: 1,
      lastSeq: 8,
      bytes: moved[0]! + moved[1]!,
      archiveBytes: got[0]!.archiveBytes + got[1]!.archiveBytes,
      to: join(dir, ARCHIVE),
      keptFrom: 9,
    },
  ]);
  t.is(await keptFromAt(dir), 9);
  t.deepEqual(
    await readArchives(dir, { players: [2] }),
    of(all, 2).filter((e) => (e.seq ?? 0) <= 8),
  );
  // Nothing more is past: a second run moves nothing and logs nothing.
  t.deepEqual(await store.archiveLog(), []);
  t.is(named('oplog.archived').length, 1);
  // After a restart, the same kept log.
  await store.close();
  const again = await openStore(t, { dir });
  t.deepEqual(
    await again.store.readLog(),
    all.filter((e) => (e.seq ?? 0) >= 9),
  );
  t.like(again.store.stats(), { replayLogEntries: 5 });
});

const ARCHIVE = 'oplog-archive';

test('retention stops at the first segment it keeps: an older-looking segment after it (a clock set back) stays, so the kept log is one run', async (t) => {
  // Day 5's segment, then day 2's (the clock set back), then day 9's.
  const { dir } = await segmented(t, [5, 2, 9], 20);
  const { store } = await openStore(t, { dir, replayLogRetentionMs: 3 * DAY, clock: () => T0 + 6 * DAY });
  t.deepEqual(await store.archiveLog(), [], 'day 5 is within three days of day 6: kept, and day 2 after it too');
  t.deepEqual(
    files(dir, 'oplog').filter((f) => f.endsWith('.jsonl')),
    [segmentName(1), segmentName(5), segmentName(9)],
  );
  const later = await store.archiveLog(T0 + 9 * DAY);
  t.deepEqual(
    later.map((m) => m.first),
    [1, 5],
    'past day 6, both go, in order',
  );
});

test('retention 0 (the default) keeps every segment: archiveLog moves nothing', async (t) => {
  const { dir } = await segmented(t, [1, 2]);
  const { store } = await openStore(t, { dir, clock: () => T0 + 1000 * DAY });
  t.deepEqual(await store.archiveLog(), []);
  t.deepEqual(files(dir, ARCHIVE), []);
});

test('the live segment is never archived, however old: only sealed segments leave the kept log', async (t) => {
  const { dir, all } = await segmented(t, [], 1);
  const { store } = await openStore(t, { dir, replayLogRetentionMs: DAY, clock: () => T0 + 100 * DAY });
  t.deepEqual(await store.archiveLog(), []);
  t.deepEqual(await store.readLog(), all);
});

test('a checkpoint starts retention itself, in its background part; a run is bounded and the next goes on', async (t) => {
  const { dir } = await segmented(t, [1, 2, 3], 4);
  const archived = new Promise<Record<string, unknown>>((resolve) => {
    void openStore(t, {
      dir,
      replayLogRetentionMs: DAY,
      clock: () => T0 + 10 * DAY,
      checkpointBytes: 1,
      log: (e, d) => {
        if (e === 'oplog.archived') resolve(d);
      },
    }).then(({ store }) => game().step(store, 7, T0 + 10 * DAY));
  });
  t.like(await archived, { segments: 3, firstSeq: 1, lastSeq: 12, keptFrom: 13 });
  // A run moves at most `max` segments (OplogSegments.archive's bound).
  const { dir: d2 } = await segmented(t, [1, 2, 3], 4);
  const segs = await OplogSegments.open(d2);
  t.teardown(() => segs.close());
  t.deepEqual(
    (await segs.archive(T0 + 10 * DAY, 2)).map((m) => m.first),
    [1, 5],
  );
  t.deepEqual(
    (await segs.archive(T0 + 10 * DAY, 2)).map((m) => m.first),
    [9],
  );
});

// ---- crashes and failures in an archive ---------------------------------------------

test('an archive write that fails (a full disk) leaves the segment kept and no partial archive; it is logged and refused; the next run archives it', async (t) => {
  const { dir, all } = await segmented(t, [1, 2], 10);
  const faults: FileFaults = { file: join(ARCHIVE, `${archiveName(1, 4)}.tmp`), failAfterBytes: 0 };
  spyFiles(t, dir, faults);
  const { store, named } = await openStore(t, { dir, replayLogRetentionMs: DAY, clock: () => T0 + 20 * DAY });
  await t.throwsAsync(store.archiveLog(), { code: 'ENOSPC' });
  t.deepEqual(named('oplog.archive_failed'), [
    { error: 'ENOSPC', segment: join(dir, 'oplog', segmentName(1)), archived: 0 },
  ]);
  t.deepEqual(files(dir, ARCHIVE), []);
  t.deepEqual(await store.readLog(), all);
  faults.failAfterBytes = undefined;
  t.deepEqual(
    (await store.archiveLog()).map((m) => m.first),
    [1, 5],
  );
  t.deepEqual(
    await store.readLog(),
    all.filter((e) => (e.seq ?? 0) >= 9),
  );
});

test('a crash in the middle of an archive (its temp file written; the archive written, the segment not yet removed; the index removed, not the segment): opens with nothing lost, the next run finishes', async (t) => {
  const { dir, all } = await segmented(t, [1, 2], 10);
  // The archive a finished run writes, from a copy.
  const done = crashCopy(t, dir);
  const d = await FileStorage.open({ dir: done, replayLogRetentionMs: DAY, clock: () => T0 + 20 * DAY });
  await d.archiveLog();
  await d.close();
  const gz = readFileSync(join(done, ARCHIVE, archiveName(1, 4)));
  const states: Array<[string, (c: string) => void]> = [
    [
      'its temp file half written',
      (c) => {
        mkdirSync(join(c, ARCHIVE));
        writeFileSync(join(c, ARCHIVE, `${archiveName(1, 4)}.tmp`), gz.subarray(0, 10));
      },
    ],
    [
      'the archive written, the segment kept',
      (c) => {
        mkdirSync(join(c, ARCHIVE));
        writeFileSync(join(c, ARCHIVE, archiveName(1, 4)), gz);
      },
    ],
    [
      "the archive written, the segment's index removed",
      (c) => {
        mkdirSync(join(c, ARCHIVE));
        writeFileSync(join(c, ARCHIVE, archiveName(1, 4)), gz);
        unlinkSync(join(c, 'oplog', '000000000001.idx'));
      },
    ],
  ];
  for (const [what, crash] of states) {
    const c = crashCopy(t, dir);
    crash(c);
    const { store } = await openStore(t, { dir: c, replayLogRetentionMs: DAY, clock: () => T0 + 20 * DAY });
    t.deepEqual(await store.readLog(), all, `${what}: the kept log whole`);
    t.deepEqual(await store.readLog({ players: [3] }), of(all, 3), what);
    t.deepEqual(
      (await store.archiveLog()).map((m) => m.first),
      [1, 5],
      what,
    );
    t.deepEqual(files(c, ARCHIVE), [archiveName(1, 4), archiveName(5, 8)], `${what}: no temp file left`);
    t.deepEqual(readFileSync(join(c, ARCHIVE, archiveName(1, 4))), gz, what);
    t.deepEqual(
      await store.readLog(),
      all.filter((e) => (e.seq ?? 0) >= 9),
      what,
    );
    await store.close();
  }
});

test('an archive that does not decompress is refused by name when it is read', async (t) => {
  const dir = tempDir(t, 'hoshi-segments-');
  mkdirSync(join(dir, ARCHIVE));
  writeFileSync(join(dir, ARCHIVE, archiveName(1, 2)), 'not gzip');
  writeFileSync(join(dir, ARCHIVE, 'notes.txt'), 'not an archive: not listed');
  t.deepEqual(
    (await listArchives(dir)).map((a) => a.first),
    [1],
  );
  await t.throwsAsync(readArchives(dir), { message: new RegExp(`${archiveName(1, 2)} does not decompress`) });
});

test('a data directory of one oplog.jsonl (written before segments) opens, reads and is sealed like any other: renamed, not rewritten', async (t) => {
  const { dir, all } = await segmented(t, [], 1);
  t.deepEqual(await readSegments(dir), all);
  t.is(await keptFromAt(dir), 1);
  const inode = statSync(join(dir, 'oplog.jsonl')).ino;
  rmSync(join(dir, 'oplog.idx'));
  const { store } = await openStore(t, { dir, oplogSegmentBytes: 1 });
  t.deepEqual(await store.readLog({ players: [2] }), of(all, 2));
  await game().step(store, 5, T0);
  await store.close();
  t.is(statSync(join(dir, 'oplog', segmentName(1))).ino, inode);
  t.deepEqual(seqs(await readSegments(dir)), [1, 2]);
});
