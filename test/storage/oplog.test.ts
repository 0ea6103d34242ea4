// The JSON-file store's replay log and its index by player (oplog.idx): a read of
// one player reads that player's lines only; the index is kept in step with the
// oplog, and rebuilt from it when it is missing, behind, torn or does not match;
// a reader that finds it does not fit reads the whole oplog and is still right.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import { readOplog } from '../../adapters/storage/oplog.js';
import type { LogRun, StoredLogEntry } from '../../adapters/storage/replay-log.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';

const dirFor = (t: ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-oplog-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const run = (p: PlayerState, others: number[] = []): LogRun => ({
  kind: 'op',
  at: p.version,
  masterHash: 'm',
  op: 'loginPlayer',
  playerId: p.playerId,
  request: {},
  seed: '',
  others,
});

/**
 * A store in `dir` with three players: each created, then `rounds` rounds of
 * player 1 alone, players 2 and 3, and 1 with 3 (a friend operation). Closed.
 */
const fill = async (
  dir: string,
  rounds: number,
  opts: { checkpointBytes?: number } = {},
): Promise<StoredLogEntry[]> => {
  const s = await FileStorage.open({ dir, ...opts });
  const ps = new Map([1, 2, 3].map((id) => [id, freshPlayer({ playerId: id, seed: `p${id}` })]));
  for (const p of ps.values()) await s.commit({ players: [{ state: p, expectedVersion: null }], log: run(p) });
  const change = async (...ids: number[]) => {
    const before = ids.map((id) => ps.get(id) as PlayerState);
    const next = before.map((p) => ({ ...p, gold: p.gold + 1, version: p.version + 1 }));
    const r = await s.commit({
      players: next.map((p, i) => ({ state: p, expectedVersion: (before[i] as PlayerState).version })),
      log: run(next[0] as PlayerState, ids.slice(1)),
    });
    if (!r.ok) throw new Error(r.detail);
    for (const p of next) ps.set(p.playerId, p);
  };
  for (let i = 0; i < rounds; i++) {
    await change(1);
    await change(2);
    await change(3);
    await change(1, 3);
  }
  const all = await s.readLog();
  await s.close();
  return all;
};

const seqsOf = (es: ReadonlyArray<StoredLogEntry>) => es.map((e) => e.seq);
const of = (all: ReadonlyArray<StoredLogEntry>, id: number) => all.filter((e) => e.playerIds.includes(id));

test('the index is kept in step: a line per entry, naming where it is in the oplog and whom it changed', async (t) => {
  const dir = dirFor(t);
  // Checkpoints on the way: the oplog and its index are synced and go on.
  const all = await fill(dir, 20, { checkpointBytes: 4096 });
  const oplog = readFileSync(join(dir, 'oplog.jsonl'));
  const lines = readFileSync(join(dir, 'oplog.idx'), 'latin1').split('\n').slice(0, -1);
  t.is(lines.length, all.length);
  lines.forEach((line, i) => {
    const [seq, offset, length, players] = line.split(' ');
    const e = JSON.parse(
      oplog.subarray(Number(offset), Number(offset) + Number(length)).toString('utf8'),
    ) as StoredLogEntry;
    t.is(e.seq, Number(seq));
    t.is(players, e.playerIds.join(','));
    t.deepEqual(e, all[i]);
  });
});

test("a read of one player reads its lines only: another player's damaged line does not stop it", async (t) => {
  const dir = dirFor(t);
  const all = await fill(dir, 5);
  const path = join(dir, 'oplog.jsonl');
  // Player 2's lines overwritten in place with bytes that are not JSON, same lengths.
  const text = readFileSync(path, 'utf8');
  const damaged = text
    .split('\n')
    .map((l) => (l !== '' && (JSON.parse(l) as StoredLogEntry).playerIds.includes(2) ? '#'.repeat(l.length) : l))
    .join('\n');
  writeFileSync(path, damaged);
  t.deepEqual(await readOplog(path, { players: [1] }), of(all, 1));
  t.deepEqual(await readOplog(path, { players: [3] }), of(all, 3));
  // The whole oplog stops at the first damaged line (a torn tail, as it reads one).
  t.deepEqual(seqsOf(await readOplog(path)), [1]);
  // The open store reads the same way through its index.
  writeFileSync(path, text);
  const s = await FileStorage.open({ dir });
  writeFileSync(path, damaged);
  t.deepEqual(
    await s.readLog({ players: [1, 3] }),
    all.filter((e) => e.playerIds.includes(1) || e.playerIds.includes(3)),
  );
  writeFileSync(path, text);
  await s.close();
});

test('a missing index is rebuilt from the oplog on open, line for line what was kept in step', async (t) => {
  const dir = dirFor(t);
  const all = await fill(dir, 5);
  const kept = readFileSync(join(dir, 'oplog.idx'));
  unlinkSync(join(dir, 'oplog.idx'));
  // A reader without it reads the whole oplog.
  t.deepEqual(await readOplog(join(dir, 'oplog.jsonl'), { players: [2] }), of(all, 2));
  const s = await FileStorage.open({ dir });
  t.deepEqual(readFileSync(join(dir, 'oplog.idx')), kept);
  t.deepEqual(await s.readLog({ players: [2] }), of(all, 2));
  await s.close();
});

test('an index behind the oplog (a crash before its append, a torn line) is caught up on open; a reader reads the oplog past it', async (t) => {
  const dir = dirFor(t);
  const all = await fill(dir, 5);
  const idx = join(dir, 'oplog.idx');
  const kept = readFileSync(idx);
  // Three whole lines and half of the fourth last lost.
  const lineStarts = [...kept.toString('latin1').matchAll(/\n/g)].map((m) => (m.index as number) + 1);
  const cut = lineStarts.at(-5) as number;
  writeFileSync(idx, kept.subarray(0, cut + 3));
  t.deepEqual(await readOplog(join(dir, 'oplog.jsonl'), { players: [1] }), of(all, 1));
  t.deepEqual(await readOplog(join(dir, 'oplog.jsonl'), { players: [2] }), of(all, 2));
  const s = await FileStorage.open({ dir });
  t.deepEqual(readFileSync(idx), kept);
  await s.close();
});

test('an index that does not fit the oplog (an edited line, a line of the index wrong) is not trusted: reads are right, the next open rebuilds it', async (t) => {
  const dir = dirFor(t);
  const all = await fill(dir, 5);
  const path = join(dir, 'oplog.jsonl');
  const idx = join(dir, 'oplog.idx');
  const kept = readFileSync(idx);
  // An oplog line made longer: every line after it moved.
  const lines = readFileSync(path, 'utf8').split('\n');
  const e = JSON.parse(lines[4] as string) as StoredLogEntry & { request: Record<string, unknown> };
  lines[4] = JSON.stringify({ ...e, request: { note: 'edited by hand' } });
  writeFileSync(path, lines.join('\n'));
  const edited = all.map((x) => (x.seq === e.seq ? { ...e, request: { note: 'edited by hand' } } : x));
  for (const id of [1, 2, 3]) t.deepEqual(await readOplog(path, { players: [id] }), of(edited, id), `player ${id}`);
  const s = await FileStorage.open({ dir });
  for (const id of [1, 2, 3])
    t.deepEqual(await s.readLog({ players: [id] }), of(edited, id), `player ${id}, after the open`);
  await s.close();
  t.notDeepEqual(readFileSync(idx), kept, 'rebuilt for the oplog as it is now');
  const rebuilt = readFileSync(idx);
  // A wrong line in the index itself (a player who is not in that entry).
  writeFileSync(idx, rebuilt.toString('latin1').replace(/^(\d+ \d+ \d+ )1\n/m, '$12\n'));
  t.deepEqual(await readOplog(path, { players: [2] }), of(edited, 2));
  const again = await FileStorage.open({ dir });
  await again.close();
  t.deepEqual(readFileSync(idx), rebuilt);
});

test('a torn oplog tail is cut on open and the index, ahead of it, rebuilt; the entry comes back from the journal', async (t) => {
  const dir = dirFor(t);
  const s = await FileStorage.open({ dir });
  const p = freshPlayer({ playerId: 1, seed: 'p1' });
  await s.commit({ players: [{ state: p, expectedVersion: null }], log: run(p) });
  const next = { ...p, gold: 5, version: 1 };
  await s.commit({ players: [{ state: next, expectedVersion: 0 }], log: run(next) });
  const all = await s.readLog();
  const idx = readFileSync(join(dir, 'oplog.idx'));
  // A crash: the last oplog line torn (the journal still holds its commit), the index whole.
  const path = join(dir, 'oplog.jsonl');
  const oplog = readFileSync(path);
  truncateSync(path, oplog.length - 10);
  const crashed = dirFor(t);
  for (const f of ['journal.log', 'oplog.jsonl', 'oplog.idx'])
    writeFileSync(join(crashed, f), readFileSync(join(dir, f)));
  writeFileSync(path, oplog);
  await s.close();
  const b = await FileStorage.open({ dir: crashed });
  t.deepEqual(await b.readLog({ players: [1] }), all);
  await b.close();
  t.deepEqual(readFileSync(join(crashed, 'oplog.idx')), idx);
});
