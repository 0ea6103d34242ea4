// The player keys and sessions on disk (index-log.ts, issue 36): a full line, then a
// line of changes a checkpoint; checkpoint.json covers a count of bytes; a new log
// once the changes outgrow the full line.
import test from 'ava';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import { readCheckpoint } from '../../adapters/storage/checkpoint.js';
import {
  appendLine,
  readIndexLog,
  startsAnew,
  writeFullLog,
  type IndexLine,
} from '../../adapters/storage/index-log.js';
import { FileDamaged, seal } from '../../adapters/storage/sealed.js';
import type { Session } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { tempDir } from '../_support/fs-spy.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const session = (playerId: number, at = 1): Session => ({ playerId, epoch: 0, createdAt: at, lastSeenAt: at });
const logOf = (dir: string) => readdirSync(dir).filter((f) => /^index\.\d+\.log$/.test(f));
const lines = (dir: string, file: string) =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l.slice(9)) as IndexLine);

test('after the first checkpoint, each appends only what changed: keys and sessions made, moved and removed; a restart reads them all back', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  for (let id = 1; id <= 50; id++)
    await a.commit({
      players: [{ state: player(id), expectedVersion: null }],
      sessions: [{ key: `s${id}`, session: session(id) }],
    });
  await a.close();
  const [file] = logOf(dir);
  const full = statSync(join(dir, file as string)).size;
  const b = await FileStorage.open({ dir });
  const p3 = player(3);
  await b.commit({
    players: [{ state: { ...p3, myCode: 'NEWCODE003', version: p3.version + 1 }, expectedVersion: p3.version }],
    sessions: [
      { key: 's4', session: null },
      { key: 's3', session: session(3, 9) },
    ],
  });
  await b.close();
  t.deepEqual(logOf(dir), [file], 'the same log');
  const [, changes] = lines(dir, file as string);
  const byKey = <V>(xs: ReadonlyArray<readonly [string, V]> | undefined) =>
    [...(xs ?? [])].sort(([x], [y]) => x.localeCompare(y));
  t.deepEqual(
    { ...changes, myCode: byKey(changes?.myCode), sessions: byKey(changes?.sessions) },
    {
      full: false,
      maxPlayerId: 50,
      uuid: [],
      myCode: byKey([
        ['NEWCODE003', 3],
        [p3.myCode, null],
      ]),
      moveCode: [],
      sessions: byKey([
        ['s4', null],
        ['s3', session(3, 9)],
      ]),
    },
  );
  t.true(
    statSync(join(dir, file as string)).size - full < full / 10,
    'a line of changes is a small part of the full one',
  );
  const c = await FileStorage.open({ dir });
  t.deepEqual(
    [
      await c.lookup('myCode', 'NEWCODE003'),
      await c.lookup('myCode', p3.myCode),
      await c.lookup('uuid', player(50).account.uuid),
    ],
    [3, undefined, 50],
  );
  t.deepEqual(
    [await c.getSession('s4'), await c.getSession('s3'), await c.getSession('s5')],
    [undefined, session(3, 9), session(5)],
  );
  await c.close();
});

test('bytes past what checkpoint.json covers (a checkpoint that died before it) are not read, and the next line is written over them', async (t) => {
  const dir = tempDir(t);
  const log0 = await writeFullLog(dir, 1, {
    full: true,
    maxPlayerId: 1,
    uuid: [['u1', 1]],
    myCode: [],
    moveCode: [],
    sessions: [],
  });
  const path = join(dir, log0.file);
  writeFileSync(
    path,
    Buffer.concat([
      readFileSync(path),
      Buffer.from(
        seal(
          JSON.stringify({ full: false, maxPlayerId: 9, uuid: [['ghost', 9]], myCode: [], moveCode: [], sessions: [] }),
        ),
      ),
    ]),
  );
  t.deepEqual(
    (await readIndexLog(dir, log0.file, log0.bytes)).map((l) => l.uuid),
    [[['u1', 1]]],
  );
  const log1 = await appendLine(dir, log0, {
    full: false,
    maxPlayerId: 2,
    uuid: [['u2', 2]],
    myCode: [],
    moveCode: [],
    sessions: [],
  });
  t.is(statSync(path).size, log1.bytes, 'the dead line is gone');
  t.deepEqual(
    (await readIndexLog(dir, log1.file, log1.bytes)).map((l) => l.uuid),
    [[['u1', 1]], [['u2', 2]]],
  );
});

test('an index log that is missing, shorter than checkpoint.json covers, cut, damaged or not begun by a full line stops the start, naming it', async (t) => {
  const dir = tempDir(t);
  const full = { full: true, maxPlayerId: 0, uuid: [], myCode: [], moveCode: [], sessions: [] };
  const path = join(dir, 'index.1.log');
  await t.throwsAsync(readIndexLog(dir, 'index.1.log', 10), {
    instanceOf: FileDamaged,
    message: /index\.1\.log is damaged: it is missing \(checkpoint\.json names it\)/,
  });
  const log = await writeFullLog(dir, 1, full);
  await t.throwsAsync(readIndexLog(dir, log.file, log.bytes + 1), {
    instanceOf: FileDamaged,
    message: /it holds \d+ bytes, checkpoint\.json covers/,
  });
  writeFileSync(path, readFileSync(path).subarray(0, log.bytes - 1));
  await t.throwsAsync(readIndexLog(dir, log.file, log.bytes - 1), {
    instanceOf: FileDamaged,
    message: /its line at byte 0 is cut short/,
  });
  writeFileSync(path, seal(JSON.stringify(full)).replace('"full"', '"fulL"'));
  await t.throwsAsync(readIndexLog(dir, log.file, log.bytes), {
    instanceOf: FileDamaged,
    message: /its CRC does not match/,
  });
  writeFileSync(path, seal(JSON.stringify({ ...full, full: false })));
  await t.throwsAsync(readIndexLog(dir, log.file, log.bytes + 1), {
    instanceOf: FileDamaged,
    message: /its line at byte 0 is not an index line/,
  });
  writeFileSync(path, seal(JSON.stringify(full)) + seal(JSON.stringify(full)));
  await t.throwsAsync(readIndexLog(dir, log.file, 2 * log.bytes), {
    instanceOf: FileDamaged,
    message: new RegExp(`its line at byte ${log.bytes} is not an index line`),
  });
  writeFileSync(path, seal('{"full":true'));
  await t.throwsAsync(readIndexLog(dir, log.file, statSync(path).size), {
    instanceOf: FileDamaged,
    message: /does not parse/,
  });
});

test('a log starts anew once it is past twice its full line and 4 MiB; a new log is written with a full line and the old one removed', async (t) => {
  t.true(startsAnew(undefined));
  t.false(startsAnew({ file: 'index.1.log', bytes: 4 * 1024 * 1024, fullBytes: 10 }));
  t.true(startsAnew({ file: 'index.1.log', bytes: 4 * 1024 * 1024 + 1, fullBytes: 10 }));
  t.false(startsAnew({ file: 'index.1.log', bytes: 10 * 1024 * 1024, fullBytes: 5 * 1024 * 1024 }));
  t.true(startsAnew({ file: 'index.1.log', bytes: 10 * 1024 * 1024 + 1, fullBytes: 5 * 1024 * 1024 }));
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  await a.close();
  const [first] = logOf(dir);
  // As if the log had grown past its bound: a line of changes of 4 MiB (a session removed that was never there).
  const cp = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8').slice(9)) as {
    indexBytes: number;
    indexFullBytes: number;
  };
  const grown = await appendLine(
    dir,
    { file: first as string, bytes: cp.indexBytes, fullBytes: cp.indexFullBytes },
    {
      full: false,
      maxPlayerId: 1,
      uuid: [],
      myCode: [],
      moveCode: [],
      sessions: [['x'.repeat(4 * 1024 * 1024), null]],
    },
  );
  writeFileSync(join(dir, 'checkpoint.json'), seal(JSON.stringify({ ...cp, indexBytes: grown.bytes })));
  const b = await FileStorage.open({ dir });
  await b.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await b.close();
  const [second] = logOf(dir);
  t.not(second, first);
  t.true(lines(dir, second as string)[0]?.full, 'a full line');
  t.is(lines(dir, second as string).length, 1);
  const back = await readCheckpoint(dir);
  t.deepEqual(
    [back.index.maps.uuid.get(player(1).account.uuid), back.index.maps.uuid.get(player(2).account.uuid)],
    [1, 2],
  );
});

test('a checkpoint that failed leaves its changes to the next, which starts a new log with everything', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({
    players: [{ state: player(1), expectedVersion: null }],
    sessions: [{ key: 's1', session: session(1) }],
  });
  await a.close();
  let fail = true;
  const errors: string[] = [];
  const b = await FileStorage.open({
    dir,
    checkpointBytes: 1,
    log: (e, d) => {
      if (e === 'checkpoint.failed') errors.push(String(d['error']));
    },
    faults: {
      beforeSnapshots: () => {
        if (fail) {
          fail = false;
          throw new Error('disk gone');
        }
      },
    },
  });
  await b.commit({ players: [], sessions: [{ key: 's2', session: session(1, 5) }] });
  // The next batch waits for nothing: its checkpoint comes when the failed one is done.
  await b.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await b.close();
  t.deepEqual(errors, ['Error: disk gone']);
  const back = await readCheckpoint(dir);
  t.deepEqual([back.index.sessions.get('s2'), back.index.maps.uuid.get(player(2).account.uuid)], [session(1, 5), 2]);
});

test('a data directory from before the index log (a keys file, sessions in checkpoint.json) opens, and its next checkpoint starts the log', async (t) => {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, 'keys.3.json'),
    seal(JSON.stringify({ maxPlayerId: 1, uuid: [['u1', 1]], myCode: [['C1', 1]], moveCode: [] })),
  );
  writeFileSync(
    join(dir, 'checkpoint.json'),
    seal(JSON.stringify({ seq: 3, keysFile: 'keys.3.json', index: { sessions: [['s1', session(1)]] } })),
  );
  const a = await FileStorage.open({ dir });
  t.deepEqual([await a.lookup('uuid', 'u1'), await a.getSession('s1')], [1, session(1)]);
  await a.commit({ players: [{ state: player(2), expectedVersion: null }] });
  await a.close();
  t.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('keys.') || f.startsWith('index.')),
    ['index.4.log'],
  );
  const b = await FileStorage.open({ dir });
  t.deepEqual(
    [
      await b.lookup('uuid', 'u1'),
      await b.lookup('myCode', 'C1'),
      await b.getSession('s1'),
      await b.lookup('uuid', player(2).account.uuid),
    ],
    [1, 1, session(1), 2],
  );
  await b.close();
});
