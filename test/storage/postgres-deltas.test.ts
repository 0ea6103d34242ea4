// PostgreSQL stores what a write changed (issues 34 and 36): a player's row keeps a
// base state and the deltas written since it (player_deltas), folded into a new base
// once their bytes reach the base's. What a load, another process, findByName and the
// draw histories see is the state with its deltas applied; a delta that does not
// follow its state is refused by name.
import test, { type ExecutionContext } from 'ava';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { StorageError } from '../../adapters/storage/storage.js';
import { freshPlayer } from '../_support/core.js';
import { openStore, sql, TEST_DATABASE_URL } from '../_support/pg.js';
import type { DrawRecord, OwnedCharacter, PlayerState } from '../../core/state.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, patch: Partial<PlayerState>): PlayerState => ({ ...s, ...patch, version: s.version + 1 });

/** Another process on the same schema (its own pool and cache). */
const another = async (t: ExecutionContext, schema: string) => {
  const y = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
  t.teardown(() => y.close());
  return y;
};

interface RowLook {
  base_version: number | null;
  version: number;
  state_version: number;
  base_bytes: number;
  deltas: number;
  delta_bytes: number;
}
const rowOf = async (schema: string, id: number): Promise<RowLook> => {
  const r = await sql<RowLook>(
    `SELECT p.base_version::int, p.version::int, (p.state->>'version')::int AS state_version, octet_length(p.state::text) AS base_bytes,
      (SELECT count(*)::int FROM ${schema}.player_deltas d WHERE d.player_id = p.player_id) AS deltas,
      (SELECT coalesce(sum(octet_length(d.delta::text)), 0)::int FROM ${schema}.player_deltas d WHERE d.player_id = p.player_id) AS delta_bytes
    FROM ${schema}.players p WHERE p.player_id = $1`,
    [id],
  );
  return r[0] as RowLook;
};

test('a write after a load stores the fields it changed as a delta row: the base stays, and another process reads the state whole', async (t) => {
  const { storage, schema } = await openStore(t);
  const p = player(1);
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  const v1 = bump(p, { gold: p.gold + 5 });
  t.true((await storage.commit({ players: [{ state: v1, expectedVersion: 0 }] })).ok);
  const row = await rowOf(schema, 1);
  t.deepEqual(
    [row.version, row.base_version, row.state_version, row.deltas],
    [1, 0, 0, 1],
    'the row at version 1, its base at 0, one delta',
  );
  const [delta] = await sql<{ delta: { base: number; set: Record<string, unknown> } }>(
    `SELECT delta FROM ${schema}.player_deltas WHERE player_id = 1`,
  );
  t.deepEqual(delta?.delta.set, { gold: v1.gold, version: 1 }, 'only what changed');
  t.is(delta?.delta.base, 0);
  const y = await another(t, schema);
  t.deepEqual(await y.load(1), v1);
});

test('a changed list is written as an edit of the list it replaced, not whole', async (t) => {
  const { storage, schema } = await openStore(t);
  const owned = (n: number): OwnedCharacter => ({
    managedCharacterId: n,
    characterId: 100 + n,
    level: 1,
    exp: 0,
    limitBreak: 0,
    awakening: 0,
    evolved: false,
    view: 0,
    shown: 0,
    createdAt: n,
  });
  const p = { ...player(1), characters: [1, 2, 3, 4, 5].map(owned) };
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  const v1 = bump(p, { characters: [...p.characters, owned(6)] });
  t.true((await storage.commit({ players: [{ state: v1, expectedVersion: 0 }] })).ok);
  const [delta] = await sql<{ delta: { edits?: Record<string, unknown[]> } }>(
    `SELECT delta FROM ${schema}.player_deltas WHERE player_id = 1`,
  );
  t.deepEqual(delta?.delta.edits?.['characters']?.[0], [0, 5], 'the old characters as one run');
  t.is(delta?.delta.edits?.['characters']?.length, 2);
  t.deepEqual((await (await another(t, schema)).load(1))?.characters, v1.characters);
});

test("the deltas fold into a new base once their bytes reach the base's: never much more than the state is kept, and every version reads back", async (t) => {
  const { storage, schema } = await openStore(t);
  let s = player(1);
  t.true((await storage.commit({ players: [{ state: s, expectedVersion: null }] })).ok);
  let folds = 0;
  let most = 0;
  // 300 writes of about 70 bytes each pass a base of about 6,800 bytes (a fresh player) at least twice.
  for (let i = 0; i < 300; i++) {
    const next = bump(s, { gold: s.gold + 1, exp: s.exp + 1 });
    t.true((await storage.commit({ players: [{ state: next, expectedVersion: s.version }] })).ok);
    s = next;
    const row = await rowOf(schema, 1);
    most = Math.max(most, row.deltas);
    if (row.deltas === 0) {
      folds++;
      t.deepEqual(
        [row.base_version, row.state_version],
        [null, s.version],
        'a fold writes the state whole and clears the base version',
      );
    }
    // The fold comes with the write that takes the deltas past the base: at most one delta over it.
    t.true(
      row.delta_bytes <= row.base_bytes + 200,
      `deltas ${row.delta_bytes} bytes against a base of ${row.base_bytes}`,
    );
  }
  t.true(folds >= 2, `folded ${folds} times in 300 writes`);
  t.true(most >= 10, `up to ${most} deltas between folds`);
  t.deepEqual(await (await another(t, schema)).load(1), s);
});

test('a store that does not hold the state written over writes it whole (no cache: every commit a base)', async (t) => {
  const { storage, schema } = await openStore(t, { cacheSize: 0 });
  const p = player(1);
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  t.true((await storage.commit({ players: [{ state: bump(p, { gold: 1 }), expectedVersion: 0 }] })).ok);
  const row = await rowOf(schema, 1);
  t.deepEqual([row.version, row.base_version, row.state_version, row.deltas], [1, null, 1, 0]);
});

test("another process writes over a delta chain it read: the versions still check, each process reads the other's writes", async (t) => {
  const { storage: x, schema } = await openStore(t);
  const y = await another(t, schema);
  const p = player(1);
  t.true((await x.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  const v1 = bump(p, { gold: 10 });
  t.true((await x.commit({ players: [{ state: v1, expectedVersion: 0 }] })).ok);
  const readByY = (await y.load(1))!;
  t.deepEqual(readByY, v1);
  const v2 = bump(readByY, { gold: 20 });
  t.true((await y.commit({ players: [{ state: v2, expectedVersion: 1 }] })).ok);
  t.is((await rowOf(schema, 1)).deltas, 2, 'y wrote a delta on the chain it read');
  // x still holds version 1: its write is a conflict, and its next load reads y's.
  const stale = await x.commit({ players: [{ state: bump(v1, { gold: 99 }), expectedVersion: 1 }] });
  t.false(stale.ok);
  t.deepEqual(await x.load(1), v2);
});

test('findByName sees a name changed in a delta, and no longer the name of the base', async (t) => {
  const { storage } = await openStore(t);
  const p = { ...player(1), name: 'Before' };
  t.true(
    (
      await storage.commit({
        players: [
          { state: p, expectedVersion: null },
          { state: { ...player(2), name: 'Before' }, expectedVersion: null },
        ],
      })
    ).ok,
  );
  t.true((await storage.commit({ players: [{ state: bump(p, { name: 'After' }), expectedVersion: 0 }] })).ok);
  t.deepEqual(await storage.findByName('After', 10), [1]);
  t.deepEqual(await storage.findByName('Before', 10), [2]);
});

test('the draw histories include the records of the deltas', async (t) => {
  const { storage } = await openStore(t);
  const p = player(1);
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  const rec: DrawRecord = {
    gachaId: 1,
    drawnAt: 1234,
    drawType: 1,
    characterIds: [1],
    payment: { ticket: 0, gem: 150, paidGem: 0 },
    granted: true,
  };
  t.true(
    (
      await storage.commit({
        players: [{ state: bump(p, { gachaHistory: [...p.gachaHistory, rec] }), expectedVersion: 0 }],
      })
    ).ok,
  );
  const seen: DrawRecord[][] = [];
  t.is(await storage.drawHistories((h) => seen.push([...h])), 1);
  t.deepEqual(seen[0]?.at(-1), rec);
});

test('a delta that does not follow its state is refused by name; one older than the base (left by a whole write) is passed over', async (t) => {
  const { storage, schema } = await openStore(t, { cacheSize: 0 });
  const p = player(1);
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  await sql(`UPDATE ${schema}.players SET base_version = 0, version = 6 WHERE player_id = 1`);
  await sql(
    `INSERT INTO ${schema}.player_deltas (player_id, version, delta) VALUES (1, 6, '{"base":5,"playerId":1,"set":{"version":6}}')`,
  );
  await t.throwsAsync(storage.load(1), {
    instanceOf: StorageError,
    message: "player 1's delta is from version 5, the state is at 0",
  });
  await sql(`DELETE FROM ${schema}.player_deltas`);
  await sql(`UPDATE ${schema}.players SET version = 1 WHERE player_id = 1`);
  await sql(
    `INSERT INTO ${schema}.player_deltas (player_id, version, delta) VALUES (1, 0, '{"base":-1,"playerId":1,"set":{"gold":77}}'), (1, 1, '{"base":0,"playerId":1,"set":{"gold":5,"version":1}}')`,
  );
  const s = await storage.load(1);
  t.deepEqual([s?.version, s?.gold], [1, 5], 'the older delta passed over, the next applied');
  await sql(
    `UPDATE ${schema}.player_deltas SET delta = '{"base":0,"playerId":1,"set":{"gold":"many","version":1}}' WHERE version = 1`,
  );
  await t.throwsAsync(storage.load(1), {
    instanceOf: StorageError,
    message: "player 1's delta row: field gold of player 1's delta does not decode",
  });
  await sql(`UPDATE ${schema}.player_deltas SET delta = '{"base":0}' WHERE version = 1`);
  await t.throwsAsync(storage.load(1), {
    instanceOf: StorageError,
    message: "player 1's deltas does not decode as stored",
  });
});
