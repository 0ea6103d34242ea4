// checkpoint.ts's rules (issue 23): what a checkpoint writes and in what order (each
// file fsynced before the file that names it, the directories fsynced, and only then
// the journals it covers let go), what it removes, and how a start reads it back:
// every file it names must be there and whole, and a read that fails is an error,
// never an empty store.
import test from 'ava';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planCheckpoint, readCheckpoint, snapshotPath, writeCheckpoint } from '../../adapters/storage/checkpoint.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { IndexModel } from '../../adapters/storage/index-model.js';
import { FileDamaged, seal } from '../../adapters/storage/sealed.js';
import { StorageError } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { spyFiles, tempDir, type FileFaults } from '../_support/fs-spy.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });

/** A store in `dir` with players `ids` committed and checkpointed (closed). */
const stored = async (dir: string, ids: ReadonlyArray<number>): Promise<void> => {
  const a = await FileStorage.open({ dir });
  for (const id of ids) await a.commit({ players: [{ state: player(id), expectedVersion: null }] });
  await a.close();
};

test('a checkpoint fsyncs each snapshot before its rename, the shard directories, then the index log and checkpoint.json, the directory, and only then lets the journal go', async (t) => {
  const dir = tempDir(t);
  const calls = spyFiles(t, dir);
  const a = await FileStorage.open({ dir });
  // 1 and 257 share the shard players/1.
  for (const id of [1, 257, 2]) await a.commit({ players: [{ state: player(id), expectedVersion: null }] });
  await a.close();
  const at = (call: string): number => {
    const i = calls.indexOf(call);
    t.not(i, -1, `${call} in ${calls.join(', ')}`);
    return i;
  };
  for (const [id, shard] of [
    [1, 1],
    [257, 1],
    [2, 2],
  ] as const) {
    const file = `players/${shard}/${id}.json`;
    const steps = [
      `open(w) ${file}.tmp`,
      `write ${file}.tmp`,
      `datasync ${file}.tmp`,
      `close ${file}.tmp`,
      `rename ${file}.tmp ${file}`,
      `sync players/${shard}`,
      'rename checkpoint.json.tmp checkpoint.json',
    ].map(at);
    t.deepEqual(
      steps,
      [...steps].sort((x, y) => x - y),
      file,
    );
  }
  const log = readdirSync(dir).find((f) => /^index\.\d+\.log$/.test(f)) ?? 'no index log';
  const order = [
    `datasync ${log}.tmp`,
    `rename ${log}.tmp ${log}`,
    'datasync checkpoint.json.tmp',
    'rename checkpoint.json.tmp checkpoint.json',
  ].map(at);
  t.deepEqual(
    order,
    [...order].sort((x, y) => x - y),
  );
  const cp = at('rename checkpoint.json.tmp checkpoint.json');
  const rotated = calls.findIndex((c) => /^unlink journal\.\d+\.log$/.test(c));
  t.true(rotated > cp, 'the rotated journal is removed after checkpoint.json is in place');
  t.true(calls.slice(cp, rotated).includes('sync .'), 'and after the directory holding it is fsynced');
  t.true(calls.slice(rotated).includes('sync .'), 'the removal is fsynced too');
});

/** An empty index's checkpoint plan at `seq`. */
const emptyPlan = (seq: number) => planCheckpoint(new IndexModel(), seq, undefined, []);

test('a checkpoint removes the rotated journals it covers and no others, and the index logs and keys files it does not name', async (t) => {
  const dir = tempDir(t);
  const keep = ['journal.7.log', 'journal.log', 'keys.3.json.bak', 'old-keys.2.json', 'oplog.jsonl', 'index.3.log.tmp'];
  for (const f of [
    'journal.3.log',
    'journal.5.log',
    'keys.2.json',
    'keys.12.json',
    'index.2.log',
    'index.12.log',
    ...keep,
  ])
    writeFileSync(join(dir, f), '');
  const log = await writeCheckpoint(dir, emptyPlan(5));
  t.deepEqual(readdirSync(dir).sort(), [...keep, 'checkpoint.json', 'index.5.log'].sort());
  t.is(log.file, 'index.5.log');
});

test('the checkpoint read back gives the index, the seq and the index log it names', async (t) => {
  const dir = tempDir(t);
  const fresh = await readCheckpoint(dir);
  t.deepEqual(
    [fresh.seq, fresh.indexLog, fresh.index.keysJSON(), fresh.index.restJSON()],
    [0, undefined, new IndexModel().keysJSON(), new IndexModel().restJSON()],
    'a fresh directory',
  );
  const index = new IndexModel();
  index.maps.uuid.set('u', 4);
  const log = await writeCheckpoint(dir, planCheckpoint(index, 9, undefined, []));
  const back = await readCheckpoint(dir);
  t.is(back.seq, 9);
  t.is(back.index.maps.uuid.get('u'), 4);
  const size = statSync(join(dir, 'index.9.log')).size;
  t.deepEqual(
    [back.indexLog, log],
    [
      { file: 'index.9.log', bytes: size, fullBytes: size },
      { file: 'index.9.log', bytes: size, fullBytes: size },
    ],
  );
});

/** checkpoint.json holding `json`, sealed. */
const checkpointHolding = (dir: string, json: unknown): void =>
  writeFileSync(join(dir, 'checkpoint.json'), seal(JSON.stringify(json)));

test('a checkpoint.json that is not a checkpoint is damage, naming it', async (t) => {
  const dir = tempDir(t);
  const log = { indexBytes: 10, indexFullBytes: 10 };
  for (const json of [
    5,
    'x',
    null,
    [],
    {},
    { seq: '3' },
    { seq: 1.5 },
    { seq: 3, keysFile: 'keys.json' },
    { seq: 3, keysFile: '../keys.3.json' },
    { seq: 3, keysFile: 'keys.3.json.bak' },
    { seq: 3, keysFile: 'keys.x.json' },
    { seq: 3, keysFile: 3 },
    { seq: 3, indexLog: '../index.3.log', ...log },
    { seq: 3, indexLog: 'index.3.log' },
    { seq: 3, indexLog: 'index.3.log', indexBytes: 10 },
    { seq: 3, indexLog: 'index.3.log', ...log, indexBytes: '10' },
  ]) {
    checkpointHolding(dir, json);
    const err = await t.throwsAsync(readCheckpoint(dir), { instanceOf: FileDamaged }, JSON.stringify(json));
    t.is(
      err?.message,
      `${join(dir, 'checkpoint.json')} is damaged: it is not a checkpoint (seq, indexLog, indexBytes; or keysFile, index); it is not read (npm run storage:check -- DATA_DIR lists every damaged file)`,
    );
  }
});

test('a keys file checkpoint.json names must be there and hold the keys', async (t) => {
  const dir = tempDir(t);
  const keysPath = join(dir, 'keys.3.json');
  checkpointHolding(dir, { seq: 3, keysFile: 'keys.3.json', index: {} });
  const missing = await t.throwsAsync(readCheckpoint(dir), { instanceOf: FileDamaged });
  t.is(missing?.reason, 'it is missing (checkpoint.json names it)');
  t.is(missing?.file, keysPath);
  for (const keys of [5, null, 'keys']) {
    writeFileSync(keysPath, seal(JSON.stringify(keys)));
    const err = await t.throwsAsync(readCheckpoint(dir), { instanceOf: FileDamaged }, JSON.stringify(keys));
    t.deepEqual([err?.file, err?.reason], [keysPath, 'it does not hold the player keys'], JSON.stringify(keys));
  }
  writeFileSync(keysPath, seal(JSON.stringify({ maxPlayerId: 1, uuid: [5] })));
  const bad = await t.throwsAsync(readCheckpoint(dir), { instanceOf: FileDamaged });
  t.deepEqual(
    [bad?.file, bad?.reason],
    [`${join(dir, 'checkpoint.json')} with ${keysPath}`, 'the indexes they hold do not load'],
  );
  // Before keys files, checkpoint.json held the whole index: it alone is named.
  checkpointHolding(dir, { seq: 3, index: { maxPlayerId: 1, uuid: [5] } });
  const old = await t.throwsAsync(readCheckpoint(dir), { instanceOf: FileDamaged });
  t.deepEqual([old?.file, old?.reason], [join(dir, 'checkpoint.json'), 'the indexes they hold do not load']);
});

/** Reads of `file` (relative to dir) fail with EIO from now on, as on a bad sector. */
const unreadable = (t: import('ava').ExecutionContext, dir: string, file: string): void => {
  const faults: FileFaults = { file, readError: 'EIO' };
  spyFiles(t, dir, faults);
};

test('a checkpoint.json or index log that cannot be read stops the start (never an empty store)', async (t) => {
  for (const file of ['checkpoint.json', 'index']) {
    const dir = tempDir(t);
    await stored(dir, [1]);
    const name = file === 'index' ? (readdirSync(dir).find((f) => /^index\.\d+\.log$/.test(f)) ?? '') : file;
    unreadable(t, dir, name);
    const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: StorageError }, name);
    t.is(err?.message, `cannot read ${join(dir, name)}`);
    t.is((err?.cause as NodeJS.ErrnoException | undefined)?.code, 'EIO');
  }
});

test('a snapshot that cannot be read fails the load (the player is not taken for absent); a missing one is absent', async (t) => {
  const dir = tempDir(t);
  await stored(dir, [1, 2]);
  rmSync(snapshotPath(dir, 2));
  const b = await FileStorage.open({ dir });
  unreadable(t, dir, 'players/1/1.json');
  const err = await t.throwsAsync(b.load(1), { instanceOf: StorageError });
  t.is(err?.message, 'cannot read player 1');
  t.is(await b.load(2), undefined);
  t.is(await b.load(3), undefined);
  await b.close();
});

test('a snapshot that does not decode is damage, naming the player and the file', async (t) => {
  const dir = tempDir(t);
  await stored(dir, [1]);
  writeFileSync(snapshotPath(dir, 1), seal(JSON.stringify({ playerId: 1 })));
  const b = await FileStorage.open({ dir });
  const err = await t.throwsAsync(b.load(1), { instanceOf: FileDamaged });
  t.deepEqual([err?.file, err?.reason], [snapshotPath(dir, 1), "player 1's snapshot does not decode"]);
  await b.close();
});

test('a checkpoint encodes one snapshot an event-loop turn: other work runs between two encodes', async (t) => {
  const dir = tempDir(t);
  const marks: string[] = [];
  // A state that notes when it is encoded (the encoder reads its name).
  const noting = (id: number): PlayerState => {
    const s = player(id);
    return Object.defineProperty({ ...s }, 'name', {
      enumerable: true,
      get: () => {
        marks.push(`encode ${id}`);
        return s.name;
      },
    });
  };
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    marks.push('turn');
    setImmediate(tick);
  };
  setImmediate(tick);
  await writeCheckpoint(
    dir,
    planCheckpoint(
      new IndexModel(),
      1,
      undefined,
      [1, 2, 3, 4].map((id) => [id, noting(id)] as const),
    ),
  );
  ticking = false;
  const encodes = marks.flatMap((m, i) => (m.startsWith('encode') ? [i] : []));
  t.is(encodes.length, 4);
  for (let k = 1; k < encodes.length; k++)
    t.true(
      marks.slice(encodes[k - 1], encodes[k]).includes('turn'),
      `a turn between encodes ${k} and ${k + 1}: ${marks.join(', ')}`,
    );
});
