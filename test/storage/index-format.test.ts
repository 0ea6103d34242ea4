// Checkpoints keep the indexes as [key, value] pairs; ones written before as objects still load,
// and the idempotency records checkpoints held before issue 36 are handed to the store.
import test from 'ava';
import { IndexModel } from '../../adapters/storage/index-model.js';

test('the index round-trips through its checkpoint form, and the older object form reads the same', (t) => {
  const session = { playerId: 2, epoch: 0, createdAt: 1, lastSeenAt: 2 };
  const pairs = {
    maxPlayerId: 3,
    uuid: [
      ['u1', 1],
      ['u2', 2],
    ],
    myCode: [['C1', 1]],
    moveCode: [],
    sessions: [['s', session]],
  } as Parameters<typeof IndexModel.fromJSON>[0];
  const a = IndexModel.fromJSON(JSON.parse(JSON.stringify(pairs)) as typeof pairs);
  t.deepEqual(JSON.parse(JSON.stringify(a.toJSON())), pairs);
  const old = IndexModel.fromJSON({
    maxPlayerId: 3,
    uuid: { u1: 1, u2: 2 },
    myCode: { C1: 1 },
    moveCode: {},
    sessions: { s: session },
  });
  t.deepEqual(old.toJSON(), a.toJSON());
  t.is(old.maps.uuid.get('u2'), 2);
  t.deepEqual(old.sessions.get('s'), session);
  const record = { requestHash: 'h', answer: { ok: {} }, createdAt: 1 };
  const legacy = IndexModel.fromJSON({ ...pairs, idempotency: { 'p1:k': record } });
  t.deepEqual(legacy.legacyAnswers, [['p1:k', record]]);
  t.deepEqual(legacy.toJSON(), a.toJSON(), 'a checkpoint no longer holds them');
});
