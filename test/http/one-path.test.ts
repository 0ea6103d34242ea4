// The service's one path serves every kind of entry, a player-less one too: an
// entry found `by: 'none'` answers from its request and master data through
// service.run, with nothing locked, loaded, committed or logged.
import test from 'ava';
import * as t from 'io-ts';
import { GameService } from '../../adapters/service/service.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { defineOp, erased } from '../../core/operation.js';
import { obj } from '../../core/codecs.js';
import { ok } from '../../core/shared/result.js';
import { master, NOW } from '../_support/core.js';

test('an entry with no player runs on the one path and commits nothing', async (tt) => {
  const storage = new MemoryStorage();
  const service = new GameService({ storage, master: master(), clock: () => NOW, seedSecret: 's', newToken: () => 'x', sessionIdleMs: 1 });
  const zone = erased(defineOp({
    name: 'getZoneForTest', method: 'GET', path: '/test/zone', group: 'test', summary: 'test',
    find: { by: 'none' }, readOnly: true,
    request: obj({}, 'ZoneRequest'), response: t.type({ offsetMinutes: t.number, now: t.number }), errors: [],
    reduce: (s, _req, _rng, now, { master: m }) => ok({ state: s, response: { offsetMinutes: m.game.timezoneOffsetMinutes, now } }),
  }));
  const r = await service.run(zone, service.context(), {});
  tt.deepEqual(r, { _tag: 'Right', right: { offsetMinutes: master().game.timezoneOffsetMinutes, now: NOW } });
  tt.deepEqual(await storage.readLog(), []);
  tt.deepEqual(await storage.playerIds(), []);
});
