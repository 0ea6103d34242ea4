// The operator's suspension entries (adminSuspendPlayer, adminLiftSuspension) and the
// recall of a send (adminRecallPresents), as the service and a replay run them.
import test from 'ava';
import { freshPlayer, master, NOW } from '../../_support/core.js';
import { run } from '../../../core/operation.js';
import { entryByName } from '../../../core/operations/table.js';
import { rngFromSeed } from '../../../core/rng.js';
import type { PlayerState } from '../../../core/state.js';
import { suspensionAt } from '../../../core/state/liveops.js';

const HOUR = 3_600_000;
const entry = (name: string, s: PlayerState, request: Record<string, unknown>, now = NOW) =>
  run(entryByName(name)!, s, { playerId: s.playerId, ...request }, rngFromSeed('op'), now, {
    master: master(),
    others: [],
  });
const ok = (r: ReturnType<typeof entry>): PlayerState => {
  if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  return r.right.state;
};

test('a suspension is in force from now until its end, raises the session epoch, and keeps its reason', (t) => {
  const s = freshPlayer();
  const after = ok(entry('adminSuspendPlayer', s, { until: NOW + HOUR, reason: 'bot', by: 'admin' }));
  t.is(after.account.sessionEpoch, s.account.sessionEpoch + 1, 'its sessions end');
  t.deepEqual(after.suspensions, [{ from: NOW, until: NOW + HOUR, reason: 'bot', by: 'admin', liftedAt: null }]);
  t.truthy(suspensionAt(after, NOW));
  t.truthy(suspensionAt(after, NOW + HOUR - 1));
  t.is(suspensionAt(after, NOW + HOUR), null, 'it ends by itself');
  t.is(suspensionAt(s, NOW), null);
});

test('a new suspension replaces the one in force (lifted at once), and an indefinite one never ends by itself', (t) => {
  const s = ok(entry('adminSuspendPlayer', freshPlayer(), { until: NOW + HOUR, reason: 'a', by: 'x' }));
  const again = ok(entry('adminSuspendPlayer', s, { until: null, reason: 'b', by: 'y' }, NOW + 1));
  t.deepEqual(
    again.suspensions.map((x) => [x.reason, x.liftedAt]),
    [
      ['a', NOW + 1],
      ['b', null],
    ],
  );
  t.truthy(suspensionAt(again, NOW + 1000 * HOUR));
});

test('lifting ends the suspension in force; with none in force it is 317 and nothing changes', (t) => {
  const s = ok(entry('adminSuspendPlayer', freshPlayer(), { until: null, reason: 'a', by: 'x' }));
  const lifted = ok(entry('adminLiftSuspension', s, {}, NOW + 5));
  t.is(lifted.suspensions[0]?.liftedAt, NOW + 5);
  t.is(suspensionAt(lifted, NOW + 5), null);
  const none = entry('adminLiftSuspension', lifted, {}, NOW + 6);
  t.like(none, { _tag: 'Left', left: { code: 'STATE_CONFLICT' } });
  const ended = ok(entry('adminSuspendPlayer', freshPlayer(), { until: NOW + 10, reason: 'a', by: 'x' }));
  t.like(entry('adminLiftSuspension', ended, {}, NOW + 10), { _tag: 'Left' }, 'one past its end is not in force');
});

test('a suspension ending now or before is 102, and nothing changes', (t) => {
  const s = freshPlayer();
  for (const until of [NOW, NOW - 1]) {
    const r = entry('adminSuspendPlayer', s, { until, reason: 'a', by: 'x' });
    t.like(r, { _tag: 'Left', left: { code: 'INVALID_PARAMETERS', field: 'until' } });
  }
});

test("a recall removes exactly its send's unreceived presents and counts its received ones", (t) => {
  let s = freshPlayer();
  const gift = { title: 'Gift', message: '', deadline: null, grant: { kind: 'gem', objectId: 0, amount: 10 } };
  s = ok(entry('adminSendPresent', s, { ...gift, sendId: 7 }));
  s = ok(entry('adminSendPresent', s, { ...gift, sendId: 7 }));
  s = ok(entry('adminSendPresent', s, { ...gift, sendId: 8 }));
  s = ok(entry('adminSendPresent', s, gift));
  const [first] = s.presents.filter((p) => p.sendId === 7);
  s = {
    ...s,
    presents: s.presents.filter((p) => p !== first),
    received: [...s.received, { ...first!, receivedAt: NOW }],
  };
  const r = entry('adminRecallPresents', s, { sendId: 7 });
  if (r._tag === 'Left') return t.fail(JSON.stringify(r.left));
  t.deepEqual(r.right.response, { removed: 1, alreadyReceived: 1 });
  t.false(r.right.state.presents.some((p) => p.sendId === 7));
  t.is(r.right.state.presents.length, s.presents.length - 1, 'send 8 and the unnumbered present stay');
  const none = entry('adminRecallPresents', s, { sendId: 99 });
  if (none._tag === 'Left') return t.fail();
  t.deepEqual(none.right.response, { removed: 0, alreadyReceived: 0 });
  t.is(none.right.state, s, 'nothing to recall: the same state');
});
