// The operator's present (adminSendPresent, run as the service and a replay run it: the
// table entry by name): a grant of something not in the master data is 107 naming it;
// otherwise the player's gift box gets it, marked as from the operator.
import test from 'ava';
import { freshPlayer, master, NOW } from '../../_support/core.js';
import { run } from '../../../core/operation.js';
import { entryByName } from '../../../core/operations/table.js';
import { rngFromSeed } from '../../../core/rng.js';
import type { PlayerState } from '../../../core/state.js';

const send = (s: PlayerState, request: Record<string, unknown>) =>
  run(
    entryByName('adminSendPresent')!,
    s,
    { playerId: s.playerId, title: 'Sorry', message: 'For the outage.', deadline: null, ...request },
    rngFromSeed('op'),
    NOW,
    { master: master(), others: [] },
  );

test('a present from the operator lands in the gift box with the operator as its source', (t) => {
  const s = freshPlayer();
  const r = send(s, { grant: { kind: 'item', objectId: 9001, amount: 2 }, deadline: NOW + 1000 });
  if (r._tag === 'Left') {
    t.fail(JSON.stringify(r.left));
    return;
  }
  t.is(r.right.state.presents.length, s.presents.length + 1);
  t.like(r.right.state.presents.at(-1), {
    kind: 'item',
    objectId: 9001,
    amount: 2,
    title: 'Sorry',
    message: 'For the outage.',
    deadline: NOW + 1000,
    source: 'operator',
  });
});

test('a grant of something not in the master data is 107 naming its kind and id, and nothing changes', (t) => {
  const s = freshPlayer();
  const before = JSON.stringify(s);
  for (const grant of [
    { kind: 'item', objectId: 999_999, amount: 1 },
    { kind: 'character', objectId: 999_999, amount: 1 },
    { kind: 'gold', objectId: 7, amount: 1 },
  ]) {
    const r = send(s, { grant });
    if (r._tag === 'Right') {
      t.fail(`${grant.kind} ${grant.objectId} was sent`);
      continue;
    }
    t.like(r.left, { code: 'NOT_FOUND', entity: grant.kind, id: grant.objectId });
  }
  t.is(JSON.stringify(s), before);
});
