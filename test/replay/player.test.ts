// Replaying one player (issue 20): only the entries its states depend on are read
// (its own, and those of the players they read, before they read them, through
// the storage's filter) and they rebuild it byte for byte as the whole log does;
// the CLI reads a running server's directory as files, leaves it byte for byte as
// it was, writes the rebuilt state with --out, and names the first differing path.
import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readPlayerLog, replayPlayer } from '../../adapters/service/replay.js';
import { writeMasterSnapshot } from '../../adapters/master/load.js';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { parseJournal } from '../../adapters/storage/journal.js';
import type { LogEntry, StoredLogEntry } from '../../adapters/storage/replay-log.js';
import type { LogFilter, Storage } from '../../adapters/storage/storage.js';
import { master, NOW } from '../_support/core.js';
import { HOUR } from '../../core/time.js';
import { receiveAllHttp, relogin, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { runReplay } from '../_support/replay-cli.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;

const must = async (t: ExecutionContext, c: Client, path: string, body: unknown): Promise<void> => {
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], 0, `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
};
const draw = (t: ExecutionContext, c: Client) =>
  must(t, c, '/api/player/gacha/draw', { gachaId: 3, drawType: 1, stepCode: 0, reDraw: false });

/**
 * Four players: c draws; b and c become friends; c draws again; a asks b, d draws,
 * b accepts, b draws, a draws. a's states depend on b's before a asked (and b's
 * accept reads b), b's on c's before b asked: c's first draw, not its second.
 */
const play = async (t: ExecutionContext, h: Harness): Promise<Record<'a' | 'b' | 'c' | 'd', Client>> => {
  const [a, b, c, d] = [await signupLogin(h), await signupLogin(h), await signupLogin(h), await signupLogin(h)] as [
    Client,
    Client,
    Client,
    Client,
  ];
  for (const x of [a, b, c, d]) t.is((await receiveAllHttp(x)).body['resultCode'], 0);
  await draw(t, c);
  await must(t, b, '/api/player/friend/propose', { playerId: c.playerId });
  await must(t, c, '/api/player/friend/accept', { playerId: b.playerId });
  await draw(t, c);
  await must(t, a, '/api/player/friend/propose', { playerId: b.playerId });
  await draw(t, d);
  await must(t, b, '/api/player/friend/accept', { playerId: a.playerId });
  await draw(t, b);
  await draw(t, a);
  return { a, b, c, d };
};

const draws = (log: ReadonlyArray<StoredLogEntry>, playerId: number): StoredLogEntry[] =>
  log.filter((e) => e.kind === 'op' && e.op === 'drawPlayerGacha' && e.playerId === playerId);

/** A storage's readLog, counting the reads and keeping their filters. */
const spied = (s: Storage) => {
  const filters: Array<LogFilter | undefined> = [];
  return {
    filters,
    read: (f: LogFilter) => {
      filters.push(f);
      return s.readLog(f);
    },
  };
};

test("one player's replay reads only the entries its states depend on, by player, and rebuilds it byte for byte as the whole log does", async (t) => {
  const h = await startHarness({ tokenSeed: 'replay-player' });
  t.teardown(() => h.close());
  const { a, b, c, d } = await play(t, h);
  const log = await h.storage.readLog();
  const masterFor = () => master();
  const seqs = (es: ReadonlyArray<StoredLogEntry>) => es.map((e) => e.seq);

  for (const p of [a, b, c, d]) {
    const spy = spied(h.storage);
    const part = await readPlayerLog(spy.read, p.playerId);
    t.true(
      spy.filters.length > 0 && spy.filters.every((f) => f?.players !== undefined && f.players.length > 0),
      'every read names its players',
    );
    t.deepEqual(seqs(part), seqs(log.filter((e) => part.includes(e))), 'in seq order, each once');
    const stored = await h.storage.load(p.playerId);
    const whole = replayPlayer(log, masterFor, p.playerId, stored);
    const only = replayPlayer(part, masterFor, p.playerId, stored);
    t.like(only, { identical: true, firstDifference: null, storedMatches: true, playerEntries: whole.playerEntries });
    t.is(
      JSON.stringify(only.rebuilt),
      JSON.stringify(whole.rebuilt),
      `player ${p.playerId}: the same bytes, the same key order`,
    );
    t.is(JSON.stringify(only.rebuilt), JSON.stringify(stored));
  }

  const of = async (p: Client) => readPlayerLog((f) => h.storage.readLog(f), p.playerId);
  const forA = await of(a);
  const [cFirst, cSecond] = draws(log, c.playerId) as [StoredLogEntry, StoredLogEntry];
  t.true(forA.includes(cFirst), "a needs c's first draw: b read c after it, and a read b");
  t.false(forA.includes(cSecond), "not c's second: it came after b read c");
  t.false(
    forA.some((e) => e.playerIds.includes(d.playerId)),
    'nothing of d, whom no one a depends on read',
  );
  t.false(forA.includes(draws(log, b.playerId)[0] as StoredLogEntry), "not b's draw after b's last entry with a");
  t.true(forA.length < log.length);
  t.deepEqual(
    seqs(await of(d)),
    seqs(log.filter((e) => e.playerIds.includes(d.playerId))),
    'd read no one: its own entries',
  );
});

test("with the stored version, a player's entries stop at the one that made it (a log a running server added to since)", async (t) => {
  const h = await startHarness({ tokenSeed: 'replay-version' });
  t.teardown(() => h.close());
  const { a } = await play(t, h);
  const before = await h.storage.load(a.playerId);
  await draw(t, a);
  await draw(t, a);
  const part = await readPlayerLog((f) => h.storage.readLog(f), a.playerId, { version: before?.version });
  const last = part.filter((e) => e.playerIds.includes(a.playerId)).at(-1);
  t.is(last?.results.find((r) => r.playerId === a.playerId)?.version, before?.version);
  t.like(
    replayPlayer(part, () => master(), a.playerId, before),
    { identical: true },
  );
  t.is(
    (await readPlayerLog((f) => h.storage.readLog(f), a.playerId)).length,
    part.length + 2,
    'without it, every entry',
  );
});

/** Every file under a directory: its bytes' hash, size and modification time. */
const filesOf = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, f.name);
      if (f.isDirectory()) walk(p);
      else {
        const st = statSync(p);
        out[relative(dir, p)] =
          `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${st.size} ${st.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
};

test("npm run replay on a running server's directory: read as files, left byte for byte as it was; --out writes the rebuilt state; the server goes on", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-replay-live-'));
  const scratch = mkdtempSync(join(tmpdir(), 'hoshi-replay-out-'));
  t.teardown(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });
  // A first run, closed: its players are in snapshots. The running server then adds
  // journal records after them (no checkpoint of its own runs while the test reads).
  const first = await FileStorage.open({ dir });
  writeMasterSnapshot(dir, master());
  const h1 = await startHarness({ storage: first, tokenSeed: 'replay-live' });
  const played = await play(t, h1);
  await h1.close();
  await first.close();
  const storage = await FileStorage.open({ dir });
  const h = await startHarness({ storage, tokenSeed: 'replay-live-2', now: NOW + HOUR });
  t.teardown(async () => {
    await h.close();
    await storage.close();
  });
  const a = await relogin(h, played.a);
  const b = await relogin(h, played.b);
  await draw(t, a);
  await must(t, b, '/api/player/friend/terminate', { playerId: a.playerId });
  const records = parseJournal(readFileSync(join(dir, 'journal.log'))).records;
  t.true(
    records.some((r) => (r.deltas ?? []).some((x) => x.playerId === a.playerId)),
    "a's last changes are in the journal, after its snapshot",
  );
  t.true(readdirSync(join(dir, 'players')).length > 0, 'snapshots were written');

  const files = filesOf(dir);
  const out = join(scratch, 'a.json');
  const r = await runReplay(['--player', String(a.playerId), '--data', dir, '--out', out]);
  t.is(r.code, 0, r.out);
  t.regex(r.out, new RegExp(`player ${a.playerId}: byte-identical to the stored state`));
  t.is(
    readFileSync(out, 'utf8'),
    `${canonicalJson(await storage.load(a.playerId))}\n`,
    '--out: the rebuilt state, canonical JSON',
  );
  t.deepEqual(filesOf(dir), files, 'not a byte, a file or a modification time changed');
  // A player the directory does not hold: exit 1, nothing written, nothing changed.
  const none = await runReplay(['--player', '999', '--data', dir, '--out', join(scratch, 'none.json')]);
  t.is(none.code, 1, none.out);
  t.regex(none.out, /no entry made player 999: nothing written .*\nplayer 999 is not stored/s);
  t.deepEqual(readdirSync(scratch), ['a.json']);
  t.deepEqual(filesOf(dir), files);
  // A directory without a store: exit 2, naming it, and it stays empty.
  const empty = join(scratch, 'empty');
  mkdirSync(empty);
  const nothing = await runReplay(['--player', String(a.playerId), '--data', empty]);
  t.is(nothing.code, 2, nothing.out);
  t.regex(nothing.out, /holds no data \(no journal\.log\)/);
  t.deepEqual(readdirSync(empty), []);

  // The server goes on, and the next replay sees what it added.
  await draw(t, a);
  await must(t, a, '/api/player/friend/propose', { playerId: b.playerId });
  for (const p of [a, b]) {
    const again = await runReplay(['--player', String(p.playerId), '--data', dir]);
    t.is(again.code, 0, again.out);
    t.regex(
      again.out,
      new RegExp(`byte-identical to the stored state \\(version ${(await storage.load(p.playerId))?.version}\\)`),
    );
  }

  // A copy with a's last draw changed in the oplog: named with the first path that differs
  // (the journal still holds the state recorded there).
  const copy = join(scratch, 'copy');
  cpSync(dir, copy, { recursive: true });
  const lines = readFileSync(join(copy, 'oplog.jsonl'), 'utf8').split('\n');
  const i = lines
    .map((l, k) =>
      l.includes('"op":"drawPlayerGacha"') && (JSON.parse(l) as LogEntry).playerId === a.playerId ? k : -1,
    )
    .reduce((x, y) => Math.max(x, y));
  const e = JSON.parse(lines[i] as string) as LogEntry;
  lines[i] = JSON.stringify({ ...e, seed: `${e.seed}x` });
  writeFileSync(join(copy, 'oplog.jsonl'), lines.join('\n'));
  const bad = await runReplay(['--player', String(a.playerId), '--data', copy]);
  t.is(bad.code, 1, bad.out);
  t.regex(
    bad.out,
    new RegExp(
      `first difference at log entry ${e.seq} \\(op drawPlayerGacha\\): the resulting state differs \\(stateHash\\), first at \\S+`,
    ),
  );
  t.regex(bad.out, /the rebuilt state is not byte-identical to the stored one: first at /);
});
