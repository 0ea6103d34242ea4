// The operator's records (maintenance, notices, sends) on every store, through the
// same contract: ids never given twice, a record put is read back as put, a removed
// one is gone; the JSON files survive a reopen; on PostgreSQL a window or notice one
// process writes is served by another once it has read them again (every poll), and
// player requests on it answer 10 inside the window.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveOps } from '../../adapters/liveops/board.js';
import { FileLiveOpsRecords, MemoryLiveOpsRecords, type LiveOpsRecords } from '../../adapters/liveops/records.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { NOW } from '../_support/core.js';
import { openStore, TEST_DATABASE_URL } from '../_support/pg.js';

const contract = async (t: import('ava').ExecutionContext, records: LiveOpsRecords) => {
  t.deepEqual(await records.list('notice'), []);
  const a = await records.nextId('notice');
  const b = await records.nextId('notice');
  t.true(b > a, 'ids rise and are never given twice');
  t.is(await records.nextId('send'), 1, 'each kind counts its own');
  await records.put('notice', b, { title: 'b' });
  await records.put('notice', a, { title: 'a' });
  t.deepEqual(await records.list('notice'), [
    { id: a, body: { title: 'a' } },
    { id: b, body: { title: 'b' } },
  ]);
  await records.put('notice', a, { title: 'a2' });
  t.deepEqual(await records.get('notice', a), { title: 'a2' });
  await records.remove('notice', a);
  t.is(await records.get('notice', a), undefined);
  t.is((await records.list('notice')).length, 1);
};

test('the memory records keep the contract', async (t) => {
  await contract(t, new MemoryLiveOpsRecords());
});

test('the JSON-file records keep the contract, and survive a reopen', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-liveops-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await contract(t, new FileLiveOpsRecords(dir));
  const again = new FileLiveOpsRecords(dir);
  t.deepEqual(await again.list('notice'), [{ id: 2, body: { title: 'b' } }]);
  t.is(await again.nextId('notice'), 3, 'no id given again after a restart');
});

test('the PostgreSQL records keep the contract', async (t) => {
  const { storage } = await openStore(t);
  await contract(t, storage.liveOpsRecords());
});

test('on PostgreSQL a window and a notice one process sets are in force on another once it has read them', async (t) => {
  const { storage: one, schema } = await openStore(t);
  const two = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
  t.teardown(() => two.close());
  const a = new LiveOps(one.liveOpsRecords());
  const b = new LiveOps(two.liveOpsRecords());
  await Promise.all([a.refresh(), b.refresh()]);
  await a.setMaintenance({ from: NOW, until: NOW + 60_000, message: 'm', allowPlayerIds: [], by: 'admin', setAt: NOW });
  await a.addNotice({
    kind: 'info',
    title: 'n',
    body: '',
    from: NOW,
    until: null,
    by: 'admin',
    createdAt: NOW,
    withdrawnAt: null,
  });
  t.is(b.maintenanceAt(NOW), null, 'before it reads them, the other process does not know');
  await b.refresh();
  t.like(b.maintenanceAt(NOW), { message: 'm' });
  t.is(b.maintenanceAt(NOW + 60_000), null, 'it ends by itself');
  t.deepEqual(
    b.noticesAt(NOW).map((n) => n.title),
    ['n'],
  );
  t.true(await b.clearMaintenance());
  await a.refresh();
  t.is(a.window, null);
  t.false(await a.clearMaintenance(), 'none left to end');
});
