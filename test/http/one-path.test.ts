// The service's one path serves every kind of entry, a player-less one too: an
// entry found `by: 'none'` answers from its request and master data through
// service.run, with nothing locked, loaded, committed or logged.
import test from 'ava';
import * as t from 'io-ts';
import { GameService } from '../../adapters/service/service.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { defineOp, erased } from '../../core/operation.js';
import { entryByName } from '../../core/operations/table.js';
import { obj } from '../../core/codecs.js';
import { ok } from '../../core/shared/result.js';
import { master, NOW } from '../_support/core.js';

test('an entry with no player runs on the one path and commits nothing', async (tt) => {
  const storage = new MemoryStorage();
  const service = new GameService({
    storage,
    master: master(),
    clock: () => NOW,
    seedSecret: 's',
    newToken: () => 'x',
    sessionIdleMs: 1,
  });
  const zone = erased(
    defineOp({
      name: 'getZoneForTest',
      method: 'GET',
      path: '/test/zone',
      group: 'test',
      summary: 'test',
      find: { by: 'none' },
      readOnly: true,
      request: obj({}, 'ZoneRequest'),
      response: t.type({ offsetMinutes: t.number, now: t.number }),
      errors: [],
      reduce: (s, _req, _rng, now, { master: m }) =>
        ok({ state: s, response: { offsetMinutes: m.game.timezoneOffsetMinutes, now } }),
    }),
  );
  const r = await service.run(zone, service.context(), {});
  tt.deepEqual(r, { _tag: 'Right', right: { offsetMinutes: master().game.timezoneOffsetMinutes, now: NOW } });
  tt.deepEqual(await storage.readLog(), []);
  tt.deepEqual(await storage.playerIds(), []);
});

const UUID = 'c1000000-0000-4000-8000-000000000001';

/** A memory store that counts what the service asks of it. */
class CountingStorage extends MemoryStorage {
  loads = 0;
  commits = 0;
  override async load(playerId: number) {
    this.loads++;
    return super.load(playerId);
  }
  override async commit(c: Parameters<MemoryStorage['commit']>[0]) {
    this.commits++;
    return super.commit(c);
  }
}

test("a draw with an Idempotency-Key loads its player once and commits once, the key's answer in the same commit", async (tt) => {
  const storage = new CountingStorage();
  let token = 0;
  const service = new GameService({
    storage,
    master: master(),
    clock: () => NOW,
    seedSecret: 's',
    newToken: () => `token-for-the-one-path-test-${++token}`,
    sessionIdleMs: 3_600_000,
  });
  const run = (name: string, ctx: Parameters<GameService['run']>[1], input: unknown) =>
    service.run(entryByName(name)!, ctx, input);
  const su = await run('signupPlayer', service.context(), { uuid: UUID, platform: 1, name: 'One' });
  if (su._tag === 'Left') return tt.fail(su.left.code);
  const li = await run('loginPlayer', service.context(), { uuid: UUID, accessToken: su.right['accessToken'] });
  if (li._tag === 'Left') return tt.fail(li.left.code);
  const session = li.right['sessionId'] as string;
  storage.loads = 0;
  storage.commits = 0;
  const ctx = service.context({ session, idempotencyKey: { key: 'k-1', requestHash: 'h-1' } });
  const draw = await run('drawPlayerGacha', ctx, { gachaId: 1, drawType: 1, stepCode: 0, reDraw: false });
  tt.is(draw._tag, 'Right', JSON.stringify(draw));
  tt.is(storage.loads, 1, 'loaded once: the session check reads the session, the epoch is checked on the one load');
  tt.is(storage.commits, 1, "the state, the log entry and the key's answer in one commit");
  const again = await run('drawPlayerGacha', ctx, { gachaId: 1, drawType: 1, stepCode: 0, reDraw: false });
  tt.deepEqual(again, draw, 'the retry gets the kept answer');
  tt.is(storage.commits, 1, 'and commits nothing');
});
