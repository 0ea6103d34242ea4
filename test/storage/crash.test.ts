// Durability over a real crash: a server process is SIGKILLed in the middle of a
// stream of writes and restarted, three times (npm run reliability does twenty).
import test from 'ava';
import { crashLoop } from '../../scripts/lib/crash-loop.js';

test('SIGKILL during acknowledged writes loses none of them, three times over', async (t) => {
  const r = await crashLoop(3, 'npm-test');
  t.log(
    `requests ${r.requests}, acknowledged ${r.acknowledged}, refused ${r.failed}, 5xx ${r.fiveXX}, restarts ${r.restarts}`,
  );
  t.deepEqual(r.problems, []);
  t.is(r.fiveXX, 0);
  t.is(r.restarts, 3);
  // Each round kills after at least 20 acknowledged writes (counted, not timed).
  t.true(r.acknowledged >= 60, `acknowledged ${r.acknowledged}`);
});
