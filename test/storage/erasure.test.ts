// A deleted player purged from the JSON-file store (docs/privacy.md): after the checkpoint
// that follows the deletion, no file of the data directory (snapshots, index log, journal,
// replay-log segments, archives decompressed, kept answers) holds its name, either uuid,
// its friend code or its token's hash, while the store runs and after it closes; the store
// opens again, its log reads whole with its index, the scrubbed entries keep their seq
// and frame, and storage:check finds nothing damaged. PostgreSQL: erasure-postgres.test.ts.
import test from 'ava';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import { readArchives } from '../../adapters/storage/oplog-archive.js';
import { checkDataDir, formatReport } from '../../adapters/storage/check.js';
import { startHarness } from '../_support/http.js';
import { NOW } from '../_support/core.js';
import { deleted, historyOf, loggedIn, searchDirectory } from '../_support/erasure.js';

const NAME = 'Zelda Quixo';

const summary = (r: ReturnType<typeof searchDirectory>): string =>
  `${r.files} files (${r.bytes} bytes, archives decompressed) searched; ${Object.keys(r.hits).length} hold it: ${JSON.stringify(r.hits)}`;

/** A player's entries in the kept log and the archive (read by player, each through its index where it has one). */
const everyEntryOf = async (s: FileStorage, dir: string, playerId: number) => {
  const kept = await s.readLog({ players: [playerId] });
  const archived = await readArchives(dir, { players: [playerId] });
  return [...archived, ...kept];
};
const DAY = 86_400_000;

test('file store: after the next checkpoint no file holds the deleted player’s name, uuids, friend code or token hash', async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-erasure-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clock = { now: NOW };
  const checkpoints: Array<() => void> = [];
  const open = () =>
    FileStorage.open({
      dir,
      // Small: checkpoints, sealed segments and archives all hold the player before its deletion.
      checkpointBytes: 8 * 1024,
      oplogSegmentBytes: 4 * 1024,
      replayLogRetentionMs: DAY,
      clock: () => clock.now,
      log: (event, data) => {
        // The checkpoint that purged a deleted player says so.
        if (event === 'checkpoint' && data['erased'] !== undefined) checkpoints.splice(0).forEach((f) => f());
      },
    });
  const storage = await open();
  const h = await startHarness({ storage, now: NOW, sessionIdleMs: 10 * DAY });
  const { a, b, needles } = await historyOf(h, NAME);
  // A day and a bit later, the oldest segments go to the archive; more traffic, more checkpoints.
  clock.now = h.clock.now = NOW + DAY + 60_000;
  // And something of the player's in a segment kept, past the archive.
  await loggedIn(h, a.uuid, a.accessToken, a.playerId);
  for (let i = 0; i < 60; i++) await b.post('/api/player/tutorial/tip/add', { tipId: i + 1 }, `tip-${i}`);
  await storage.archiveLog();
  const before = searchDirectory(dir, needles);
  t.log(`before: ${summary(before)}`);
  for (const place of ['players', 'index.', 'oplog/', 'oplog-archive/', 'idempotency/'])
    t.true(
      Object.keys(before.hits).some((f) => f.startsWith(place)),
      `before the deletion, ${place} holds it (the search finds what is there)`,
    );

  const entriesBefore = await everyEntryOf(storage, dir, a.playerId);
  // The next checkpoint (the store's own, when its journal reaches checkpointBytes) says it purged one.
  let done = false;
  checkpoints.push(() => {
    done = true;
  });
  await deleted(a);
  for (let i = 0; !done && i < 500; i++) await b.post('/api/player/tutorial/tip/add', { tipId: 1000 + i }, `more-${i}`);
  if (!done) {
    t.fail('no checkpoint purged the deleted player');
    return;
  }
  const running = searchDirectory(dir, needles);
  t.log(`after the checkpoint, the store running: ${summary(running)}`);
  t.deepEqual(running.hits, {});

  await h.close();
  await storage.close();
  const closed = searchDirectory(dir, needles);
  t.log(`after the store closed: ${summary(closed)}`);
  t.deepEqual(closed.hits, {});

  // The store opens again and reads its log whole: the scrubbed entries in their places.
  const again = await open();
  t.is(await again.load(a.playerId), undefined);
  t.truthy(await again.load(b.playerId));
  const log = await again.readLog();
  t.deepEqual(
    log.map((e) => e.seq),
    log.map((_, i) => (log[0]?.seq ?? 1) + i),
    'every seq in order',
  );
  const mine = await everyEntryOf(again, dir, a.playerId);
  t.deepEqual(
    mine.map((e) => e.seq),
    [...entriesBefore.map((e) => e.seq), mine.at(-1)?.seq],
    'its entries are all there (kept or archived), and the deletion after them',
  );
  t.like(mine.at(-1), { kind: 'op', op: 'deletePlayer' });
  await again.close();
  const report = await checkDataDir(dir);
  t.false(report.damaged, formatReport(report));
});

test('file store: a deletion whose checkpoint never came (a crash) is purged by the first checkpoint after the open', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-erasure-'));
  const copy = mkdtempSync(join(tmpdir(), 'hoshi-erasure-crashed-'));
  t.teardown(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  });
  let failing = false;
  const storage = await FileStorage.open({
    dir,
    faults: {
      beforeSnapshots: () => {
        if (failing) throw new Error('disk full');
      },
    },
  });
  const h = await startHarness({ storage, now: NOW });
  const { a, needles } = await historyOf(h, NAME);
  // Everything on disk before the deletion: snapshots, the index log, a sealed segment.
  await (storage as unknown as { checkpoint(): Promise<void> }).checkpoint();
  await deleted(a);
  // The disk as a crash would leave it: the deletion in the journal, no checkpoint after it.
  cpSync(dir, copy, { recursive: true });
  t.true(Object.keys(searchDirectory(copy, needles).hits).length > 0);
  // A checkpoint that fails purges nothing and keeps the journal; the next one purges.
  failing = true;
  await t.throwsAsync((storage as unknown as { checkpoint(): Promise<void> }).checkpoint(), { message: 'disk full' });
  t.true(Object.keys(searchDirectory(dir, needles).hits).length > 0, 'a failed checkpoint purged nothing');
  failing = false;
  await h.close();
  await storage.close();
  t.deepEqual(searchDirectory(dir, needles).hits, {});

  const reopened = await FileStorage.open({ dir: copy });
  t.is(await reopened.load(a.playerId), undefined);
  await reopened.close();
  t.deepEqual(searchDirectory(copy, needles).hits, {}, 'the open read the deletion back and its checkpoint purged');
});
