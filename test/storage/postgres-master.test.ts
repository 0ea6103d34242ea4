// The game data's versions on PostgreSQL, shared by every process: a version one
// process publishes and schedules is served by another from the same instant once it
// has read the schedule (every MASTER_POLL_SECONDS), and a process that starts later
// finds the version in force; the files stay kept for the replay.
import test from 'ava';
import { MasterBook } from '../../adapters/master/book.js';
import { hashMasterFiles, masterFromFiles, masterSourceOf, type MasterFiles } from '../../adapters/master/load.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { master, NOW } from '../_support/core.js';
import { openStore, TEST_DATABASE_URL } from '../_support/pg.js';

const baseFiles = masterSourceOf(master())?.raw as MasterFiles;
const base = { master: master(), version: hashMasterFiles(baseFiles) };
type Game = { player: { startGold: number } };
/** The fixtures with another starting gold: a version of their own. */
const other = (): MasterFiles => {
  const files = structuredClone(baseFiles);
  const game = files['game'] as Game;
  files['game'] = { ...game, player: { ...game.player, startGold: game.player.startGold + 1 } };
  return files;
};

test('a version scheduled by one process serves on another from the same instant, and a process started later finds it', async (t) => {
  const { storage: one, schema } = await openStore(t);
  const two = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
  t.teardown(() => two.close());
  const a = new MasterBook(base, one.masterRegistry(), 11_000);
  const b = new MasterBook(base, two.masterRegistry(), 11_000);
  await Promise.all([a.refresh(), b.refresh()]);
  const files = other();
  const version = hashMasterFiles(files);
  await a.publish(files, masterFromFiles(files), version, 'admin', 'more gold', NOW);
  const entry = await a.schedule(version, NOW + 60_000, 'admin', '', NOW);
  t.is(b.at(NOW + 60_000).version, base.version, 'before it reads the schedule, the other process does not know');
  await b.refresh();
  for (const book of [a, b]) {
    t.is(book.at(NOW + 59_999).version, base.version);
    t.is(book.at(NOW + 60_000).version, version);
    t.is(book.at(NOW + 60_000).master.game.player.startGold, master().game.player.startGold + 1);
  }
  t.like(
    b.known.versions.find((v) => v.version === version),
    { by: 'admin', note: 'more gold', publishedAt: NOW },
  );
  t.deepEqual(
    await two.masterRegistry().readFiles(version),
    JSON.parse(JSON.stringify(files)),
    'the files kept for the replay',
  );
  // A process that starts later (with the fixtures) serves the version in force.
  const later = new MasterBook(base, two.masterRegistry(), 11_000);
  await later.refresh();
  t.is(later.at(NOW + 120_000).version, version);
  // Cancelled before its time only: this one is in force at NOW + 60 s.
  t.false(await a.cancel(entry.id, NOW + 60_000));
  const next = await a.schedule(base.version, NOW + 120_000, 'admin', 'back', NOW + 60_000);
  t.true(await b.cancel(next.id, NOW + 90_000));
  await a.refresh();
  t.is(a.at(NOW + 200_000).version, version, 'the cancelled roll-back never took effect');
});
