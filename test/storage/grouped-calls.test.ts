// Group commit (grouped-calls.ts): a commit goes at once while fewer than `inFlight` calls
// are out; those arriving meanwhile go together in the next call, in the order they came,
// never two sharing a player, never more than `maxBatch`; a failed call fails each of its
// commits and the queue goes on.
import test from 'ava';
import { GroupedCalls } from '../../adapters/storage/grouped-calls.js';

/** A send whose calls the test ends by hand, each recorded with the items it carried. */
const heldSend = () => {
  const calls: Array<{ items: string[]; end: (e?: Error) => void }> = [];
  const send = (items: string[]): Promise<string[]> =>
    new Promise((resolve, reject) => {
      calls.push({ items, end: (e) => (e ? reject(e) : resolve(items.map((x) => `${x}!`))) });
    });
  return { calls, send };
};

const tick = () => new Promise((r) => setImmediate(r));

test('with no call out a commit is sent at once, alone, and gets its own result', async (t) => {
  const { calls, send } = heldSend();
  const g = new GroupedCalls(send, { maxBatch: 16, inFlight: 2 });
  const a = g.submit('a', [1]);
  t.deepEqual(
    calls.map((c) => c.items),
    [['a']],
  );
  calls[0]?.end();
  t.is(await a, 'a!');
  t.is(calls.length, 1);
});

test('commits arriving while the calls allowed are out go together in the next call, in the order they came', async (t) => {
  const { calls, send } = heldSend();
  const g = new GroupedCalls(send, { maxBatch: 16, inFlight: 2 });
  const results = ['a', 'b', 'c', 'd', 'e'].map((x, i) => g.submit(x, [i + 1]));
  t.deepEqual(
    calls.map((c) => c.items),
    [['a'], ['b']],
    'two calls out, the rest wait',
  );
  calls[0]?.end();
  await tick();
  t.deepEqual(calls[2]?.items, ['c', 'd', 'e'], 'the three waiting in one call, as soon as a call ended');
  calls[1]?.end();
  calls[2]?.end();
  t.deepEqual(await Promise.all(results), ['a!', 'b!', 'c!', 'd!', 'e!']);
  t.is(calls.length, 3);
});

test('a call carries at most maxBatch commits; the rest go in the next', async (t) => {
  const { calls, send } = heldSend();
  const g = new GroupedCalls(send, { maxBatch: 3, inFlight: 1 });
  const all = Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((x, i) => g.submit(x, [i + 1])));
  calls[0]?.end();
  await tick();
  t.deepEqual(calls[1]?.items, ['b', 'c', 'd']);
  calls[1]?.end();
  await tick();
  t.deepEqual(calls[2]?.items, ['e', 'f']);
  calls[2]?.end();
  await all;
  t.is(calls.length, 3);
});

test('two commits sharing a player are never in one call: the call stops before the second, which goes next, after it', async (t) => {
  const { calls, send } = heldSend();
  const g = new GroupedCalls(send, { maxBatch: 16, inFlight: 1 });
  const all = Promise.all([
    g.submit('first', [9]),
    g.submit('p1', [1, 2]),
    g.submit('p3', [3]),
    g.submit('p2-again', [4, 2]),
    g.submit('p5', [5]),
  ]);
  calls[0]?.end();
  await tick();
  t.deepEqual(calls[1]?.items, ['p1', 'p3'], 'stops before the commit that shares player 2');
  calls[1]?.end();
  await tick();
  t.deepEqual(calls[2]?.items, ['p2-again', 'p5']);
  calls[2]?.end();
  t.deepEqual(await all, ['first!', 'p1!', 'p3!', 'p2-again!', 'p5!']);
});

test('a failed call fails each of its commits, and the ones waiting are sent after it', async (t) => {
  const { calls, send } = heldSend();
  const g = new GroupedCalls(send, { maxBatch: 16, inFlight: 1 });
  const a = g.submit('a', [1]);
  const b = g.submit('b', [2]);
  const c = g.submit('c', [3]);
  calls[0]?.end();
  await tick();
  calls[1]?.end(new Error('the database went away'));
  await t.throwsAsync(b, { message: 'the database went away' });
  await t.throwsAsync(c, { message: 'the database went away' });
  t.is(await a, 'a!');
  const d = g.submit('d', [4]);
  t.deepEqual(calls[2]?.items, ['d'], 'the queue goes on');
  calls[2]?.end();
  t.is(await d, 'd!');
});

test('a call may answer an item with its own failure: that item fails, the others of the call get their results', async (t) => {
  const send = async (items: string[]): Promise<Array<string | Promise<string>>> =>
    items.map((x) => (x === 'bad' ? Promise.reject(new Error('bad alone')) : `${x}!`));
  const g = new GroupedCalls(send, { maxBatch: 16, inFlight: 1 });
  const [a, bad, c] = await Promise.allSettled([g.submit('a', [1]), g.submit('bad', [2]), g.submit('c', [3])]);
  t.like(a, { status: 'fulfilled', value: 'a!' });
  t.like(bad, { status: 'rejected', reason: { message: 'bad alone' } });
  t.like(c, { status: 'fulfilled', value: 'c!' });
});

test('an item submitted alone goes in a call of its own: the call before it stops before it, the one after starts after it', async (t) => {
  const { calls, send } = heldSend();
  const g = new GroupedCalls(send, { maxBatch: 16, inFlight: 1 });
  const all = Promise.all([
    g.submit('first', [1]),
    g.submit('a', [2]),
    g.submit('b', [3]),
    g.submit('pair', [4, 5], true),
    g.submit('c', [6]),
    g.submit('d', [7]),
  ]);
  for (let i = 0; i < 4; i++) {
    calls[i]?.end();
    await tick();
  }
  t.deepEqual(
    calls.map((c) => c.items),
    [['first'], ['a', 'b'], ['pair'], ['c', 'd']],
  );
  t.deepEqual(await all, ['first!', 'a!', 'b!', 'pair!', 'c!', 'd!']);
});
