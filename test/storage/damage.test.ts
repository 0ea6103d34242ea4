// A damaged data directory is never read as data (issue 18): damage in the middle of
// the journal stops the open, naming the file, the offset and the record, and
// leaves the file as it was; only a torn tail is dropped. storage:check lists
// every damaged record and `--truncate-at` is the one repair. Checkpoints also come
// on a timer.
import test from 'ava';
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FileStorage } from '../../adapters/storage/file.js';
import { JournalDamaged, scanJournal } from '../../adapters/storage/journal.js';
import { checkDataDir, truncateJournalAt } from '../../adapters/storage/check.js';
import { freshPlayer } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';

const run = promisify(execFile);

const dirFor = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-damage-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });

/** Six players and 60 acknowledged sales-like gold changes, then abandoned (a SIGKILL): all of it in journal.log. */
const written = async (dir: string): Promise<Map<number, number>> => {
  const a = await FileStorage.open({ dir });
  const states = new Map<number, PlayerState>();
  for (let i = 1; i <= 6; i++) {
    await a.commit({ players: [{ state: player(i), expectedVersion: null }] });
    states.set(i, player(i));
  }
  for (let k = 0; k < 60; k++) {
    const id = (k % 6) + 1;
    const s = states.get(id) as PlayerState;
    const next = bump(s, s.gold + 100 + k);
    t_ok((await a.commit({ players: [{ state: next, expectedVersion: s.version }] })).ok);
    states.set(id, next);
  }
  return new Map([...states].map(([id, s]) => [id, s.gold]));
};
const t_ok = (b: boolean) => {
  if (!b) throw new Error('commit refused');
};

/** Line starts of journal.log. */
const lineStarts = (buf: Buffer): number[] => {
  const out = [0];
  for (let i = buf.indexOf(0x0a); i >= 0 && i + 1 < buf.length; i = buf.indexOf(0x0a, i + 1)) out.push(i + 1);
  return out;
};

test('one digit changed in the middle of the journal: the open fails naming the file, offset and record, and the file is kept as it was', async (t) => {
  const dir = dirFor(t);
  await written(dir);
  const path = join(dir, 'journal.log');
  const buf = readFileSync(path);
  const starts = lineStarts(buf);
  const victim = starts[Math.floor(starts.length / 2)] as number;
  // A digit inside the record's JSON (past its CRC), changed to another.
  const at = buf.indexOf('"gold":', victim) + 7;
  t.true(at > victim && at < (starts[starts.indexOf(victim) + 1] as number));
  const damaged = Buffer.from(buf);
  damaged[at] = damaged[at] === 0x39 ? 0x38 : (damaged[at] as number) + 1;
  writeFileSync(path, damaged);
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: JournalDamaged });
  t.regex(err.message, /journal\.log at byte \d+/);
  t.true(err.message.includes(`at byte ${victim},`), err.message);
  const afterSeq = scanJournal(buf, path).records[starts.indexOf(victim) - 1]?.seq;
  t.true(err.message.includes(`the record after seq ${afterSeq}`), err.message);
  t.regex(err.message, /CRC does not match/);
  t.regex(err.message, /whole record\(s\) follow it/);
  t.deepEqual(readFileSync(path), damaged, 'the journal is left byte for byte as it was');
  // Opening again (a restart loop) changes nothing either.
  await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: JournalDamaged });
  t.deepEqual(readFileSync(path), damaged);
});

test('200 bytes cut out of the middle of the journal: the open fails naming the file and offset', async (t) => {
  const dir = dirFor(t);
  await written(dir);
  const path = join(dir, 'journal.log');
  const buf = readFileSync(path);
  const mid = Math.floor(buf.length / 2);
  const cut = Buffer.concat([buf.subarray(0, mid), buf.subarray(mid + 200)]);
  writeFileSync(path, cut);
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: JournalDamaged });
  // The damaged record is the one the cut began in.
  const starts = lineStarts(buf);
  const victim = starts.filter((s) => s <= mid).at(-1) as number;
  t.true(err.message.includes(`journal.log at byte ${victim},`), err.message);
  t.deepEqual(readFileSync(path), cut);
});

test('a torn tail (the last record cut short, or unwritten zero bytes) is still dropped at start, with every whole record kept', async (t) => {
  for (const tail of ['cut', 'zeros'] as const) {
    const dir = dirFor(t);
    const gold = await written(dir);
    const path = join(dir, 'journal.log');
    const whole = statSync(path).size;
    const buf = readFileSync(path);
    const last = buf.subarray(lineStarts(buf).at(-1) as number);
    // A crash mid-write: a prefix of the next record, or a block the disk never wrote (zeros, then the record's end).
    appendFileSync(
      path,
      tail === 'cut' ? last.subarray(0, 40) : Buffer.concat([Buffer.alloc(300), last.subarray(last.length - 20)]),
    );
    const b = await FileStorage.open({ dir });
    t.is(statSync(path).size, whole, tail);
    for (const [id, g] of gold) t.is((await b.load(id))?.gold, g);
    await b.close();
  }
});

test('a whole last record that is wrong is damage, not a torn tail', async (t) => {
  const dir = dirFor(t);
  await written(dir);
  const path = join(dir, 'journal.log');
  const buf = readFileSync(path);
  const last = lineStarts(buf).at(-1) as number;
  const at = buf.indexOf('"gold":', last) + 7;
  const damaged = Buffer.from(buf);
  damaged[at] = damaged[at] === 0x31 ? 0x32 : 0x31;
  writeFileSync(path, damaged);
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: JournalDamaged });
  t.true(err.message.includes(`at byte ${last},`));
  t.deepEqual(readFileSync(path), damaged);
});

test('records missing from the journal (a gap in seq) stop the open', async (t) => {
  const dir = dirFor(t);
  await written(dir);
  const path = join(dir, 'journal.log');
  const buf = readFileSync(path);
  const starts = lineStarts(buf);
  // Two whole records removed: every line left is whole, but seq jumps.
  const i = Math.floor(starts.length / 2);
  const gap = Buffer.concat([buf.subarray(0, starts[i]), buf.subarray(starts[i + 2])]);
  writeFileSync(path, gap);
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: JournalDamaged });
  t.regex(err.message, /records \d+ to \d+ are missing before it/);
  t.true(err.message.includes(`at byte ${starts[i]},`));
});

test('storage:check lists every damaged record; --truncate-at is the repair, keeping the dropped bytes', async (t) => {
  const dir = dirFor(t);
  await written(dir);
  const path = join(dir, 'journal.log');
  const buf = readFileSync(path);
  const starts = lineStarts(buf);
  const [a, b] = [starts[20] as number, starts[40] as number];
  const damaged = Buffer.from(buf);
  for (const s of [a, b]) damaged[s + 3] = damaged[s + 3] === 0x30 ? 0x31 : 0x30; // a CRC digit
  writeFileSync(path, damaged);
  const report = await checkDataDir(dir);
  t.true(report.damaged);
  t.deepEqual(
    report.problems.map((p) => p.offset),
    [a, b],
  );
  t.true(report.problems.every((p) => p.file === path && /CRC does not match/.test(p.reason)));

  // The command line: exit 1, the damage listed with offsets, and the repair command.
  const cli = await run(process.execPath, ['--import', 'tsx', 'scripts/storage-check.ts', dir]).then(
    () => ({ code: 0, stdout: '' }),
    (e: { code: number; stdout: string }) => e,
  );
  t.is(cli.code, 1);
  t.true(cli.stdout.includes(`DAMAGED ${path} at byte ${a}`), cli.stdout);
  t.true(cli.stdout.includes(`DAMAGED ${path} at byte ${b}`), cli.stdout);
  t.true(cli.stdout.includes(`--truncate-at ${a}`), cli.stdout);

  // Not at a record's start: refused.
  await t.throwsAsync(truncateJournalAt(dir, 'journal.log', a + 1), { message: /not at the start of a record/ });
  // The store `written` left open stands for a crashed server: its process would be gone, and with it its hold.
  rmSync(join(dir, 'server.pid'));
  const fixed = await run(process.execPath, [
    '--import',
    'tsx',
    'scripts/storage-check.ts',
    dir,
    '--truncate-at',
    String(a),
  ]);
  t.regex(fixed.stdout, /no damage found/);
  t.deepEqual(readFileSync(path), buf.subarray(0, a));
  t.deepEqual(readFileSync(`${path}.dropped-at-${a}`), damaged.subarray(a), 'the dropped bytes are kept');
  const s = await FileStorage.open({ dir });
  t.deepEqual(await s.playerIds(), [1, 2, 3, 4, 5, 6]);
  await s.close();
});

test('checkpoints come on a timer too: the journal a start replays is bounded in time', async (t) => {
  const dir = dirFor(t);
  const a = await FileStorage.open({ dir, checkpointIntervalMs: 150 });
  // journal.log is briefly missing while a checkpoint rotates it (renamed, then made anew): -1 then.
  const journalSize = (): number => {
    try {
      return statSync(join(dir, 'journal.log')).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return -1;
      throw e;
    }
  };
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  t.true(journalSize() > 0);
  for (let i = 0; i < 200 && !(existsSync(join(dir, 'players', '1', '1.json')) && journalSize() === 0); i++)
    await new Promise((r) => setTimeout(r, 25));
  t.is(journalSize(), 0, 'the timer rotated the journal');
  t.true(existsSync(join(dir, 'players', '1', '1.json')));
  for (let i = 0; i < 200 && readdirSync(dir).some((f) => /^journal\.\d+\.log$/.test(f)); i++)
    await new Promise((r) => setTimeout(r, 25));
  t.false(
    readdirSync(dir).some((f) => /^journal\.\d+\.log$/.test(f)),
    'and the checkpoint let the rotated journal go',
  );
  // The next write too: a crash now would leave nothing to replay.
  await a.commit({ players: [{ state: bump(player(1), 5), expectedVersion: 0 }] });
  for (let i = 0; i < 200 && journalSize() !== 0; i++) await new Promise((r) => setTimeout(r, 25));
  t.is(journalSize(), 0);
  await a.close();
});
