// A data directory read as files (adapters/storage/file-reader.ts), beside a store
// that has it open: a player's state is what the store would load, also with a
// checkpoint held midway (the rotated journal and the new one both read); damage
// is refused by name and a journal that does not fit its snapshot is not guessed
// at; nothing in the directory changes.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { readLogAt, readStoredPlayer } from '../../adapters/storage/file-reader.js';
import { JournalDamaged } from '../../adapters/storage/journal.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import { seal } from '../../adapters/storage/sealed.js';
import { StorageError } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';

const dirFor = (t: ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-reader-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
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
const bump = (s: PlayerState): PlayerState => ({ ...s, gold: s.gold + 1, version: s.version + 1 });

/** Every file's bytes and modification time. */
const filesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => {
        const p = join(f.parentPath, f.name);
        return [p, `${readFileSync(p).toString('base64')} ${statSync(p).mtimeMs}`];
      }),
  );

/** Commits `n` changes to each of players 1 and 2 (created first); returns their last states. */
const commits = async (
  s: FileStorage,
  n: number,
  from?: Map<number, PlayerState>,
): Promise<Map<number, PlayerState>> => {
  const ps = from ?? new Map([1, 2].map((id) => [id, freshPlayer({ playerId: id, seed: `p${id}` })]));
  if (!from)
    for (const p of ps.values()) await s.commit({ players: [{ state: p, expectedVersion: null }], log: run(p) });
  for (let i = 0; i < n; i++) {
    for (const [id, p] of ps) {
      const next = bump(p);
      const r = await s.commit({ players: [{ state: next, expectedVersion: p.version }], log: run(next) });
      if (!r.ok) throw new Error(r.detail);
      ps.set(id, next);
    }
  }
  return ps;
};

test('a checkpoint held midway (journal rotated, snapshots not yet written): the player read is the one the store loads, the log whole', async (t) => {
  const dir = dirFor(t);
  let release = (): void => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  let started = 0;
  const s = await FileStorage.open({
    dir,
    checkpointBytes: 8 * 1024,
    faults: {
      beforeSnapshots: async () => {
        started++;
        await held;
      },
    },
  });
  t.teardown(async () => {
    release();
    await s.close();
  });
  const ps = await commits(s, 8);
  await commits(s, 3, ps);
  t.true(started >= 1, 'a checkpoint began and is held');
  t.true(
    readdirSync(dir).some((f) => /^journal\.\d+\.log$/.test(f)),
    'a rotated journal is there',
  );
  const files = filesOf(dir);
  for (const id of [1, 2]) {
    const read = await readStoredPlayer(dir, id);
    t.is(canonicalJson(read.state), canonicalJson(await s.load(id)), `player ${id}`);
    t.deepEqual(await readLogAt(dir, read.journalLog, { players: [id] }), await s.readLog({ players: [id] }));
  }
  t.deepEqual(filesOf(dir), files, 'nothing changed');
});

test('a damaged journal is refused by name (JournalDamaged); nothing changes', async (t) => {
  const dir = dirFor(t);
  const s = await FileStorage.open({ dir });
  // Closed with the test (its checkpoint writes from memory; the damage is in the file only).
  t.teardown(() => s.close().catch(() => undefined));
  await commits(s, 3);
  // A server holds the directory; a record in the middle of its journal is damaged.
  const path = join(dir, 'journal.log');
  const bytes = readFileSync(path);
  const second = bytes.indexOf(0x0a) + 1;
  bytes[second + 20] = bytes[second + 20] === 0x41 ? 0x42 : 0x41;
  writeFileSync(path, bytes);
  const files = filesOf(dir);
  const e = await t.throwsAsync(readStoredPlayer(dir, 1), { instanceOf: JournalDamaged });
  t.regex(e?.message ?? '', /journal\.log at byte \d+/);
  t.deepEqual(filesOf(dir), files);
});

test('a delta whose base the snapshot does not hold is not guessed at: refused after reading again, naming the record; nothing changes', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir });
  await commits(a, 2);
  await a.close();
  // Another open: its records are deltas from the snapshots the close wrote (version 2).
  const b = await FileStorage.open({ dir });
  t.teardown(() => b.close());
  const now = new Map<number, PlayerState>();
  for (const id of [1, 2]) now.set(id, (await b.load(id)) as PlayerState);
  await commits(b, 1, now);
  t.regex(readFileSync(join(dir, 'journal.log'), 'utf8'), /"base":2,"playerId":1/);
  // Player 1's snapshot put back to its first version: the delta no longer fits.
  writeFileSync(join(dir, 'players', '1', '1.json'), seal(canonicalJson(freshPlayer({ playerId: 1, seed: 'p1' }))));
  const files = filesOf(dir);
  await t.throwsAsync(readStoredPlayer(dir, 1), {
    instanceOf: StorageError,
    message: /player 1 could not be read .* journal record \d+: player 1's delta is from version 2, the state is at 0/,
  });
  t.is(canonicalJson((await readStoredPlayer(dir, 2)).state), canonicalJson(await b.load(2)), 'the other player reads');
  t.deepEqual(filesOf(dir), files);
});
