// The game data's versions as the JSON-file store keeps them (DATA_DIR/master/): every
// version's files by hash (what the replay reads) and ledger.json, the versions'
// records and the schedule, read back the same by a process started later.
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMasterRegistry } from '../../adapters/master/registry.js';
import { readMasterSnapshot } from '../../adapters/master/load.js';
import { master, NOW } from '../_support/core.js';
import { masterSourceOf } from '../../adapters/master/load.js';

test('a version and its schedule are kept under DATA_DIR/master/ and read back by a later process', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-master-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const src = masterSourceOf(master());
  if (!src) return t.fail('the fixtures have no source');
  const one = new FileMasterRegistry(dir);
  await one.saveVersion(src.raw, { version: src.hash, publishedAt: NOW, by: 'start-up', note: 'fixtures' });
  const first = await one.schedule({ version: src.hash, at: NOW + 1000, by: 'admin', note: 'a', createdAt: NOW });
  const second = await one.schedule({ version: src.hash, at: NOW + 2000, by: 'admin', note: 'b', createdAt: NOW });
  t.true(await one.cancel(second.id, NOW + 1500));
  t.false(await one.cancel(first.id, NOW + 1500), 'in effect already: not cancelled');
  t.false(await one.cancel(99, NOW), 'no such entry');
  const later = new FileMasterRegistry(dir);
  t.deepEqual(await later.readLedger(), await one.readLedger());
  t.deepEqual(
    (await later.readLedger()).schedule.map((e) => [e.id, e.cancelledAt]),
    [
      [first.id, null],
      [second.id, NOW + 1500],
    ],
  );
  t.deepEqual(await later.readFiles(src.hash), JSON.parse(JSON.stringify(src.raw)));
  t.is(await later.readFiles('0'.repeat(64)), undefined);
  t.is(
    readMasterSnapshot(dir, src.hash).game.timezoneOffsetMinutes,
    master().game.timezoneOffsetMinutes,
    'the replay reads the same file',
  );
  t.deepEqual(readdirSync(join(dir, 'master')).sort(), [`${src.hash}.json`, 'ledger.json']);
});
