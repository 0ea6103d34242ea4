// answerJson keeps the JSON of shared views by identity; whatever it reuses, it
// must give exactly what JSON.stringify gives.
import test from 'ava';
import fc from 'fast-check';
import { answerJson, setAnswerCacheBytes } from '../../adapters/http/json.js';
import { freshPlayer, ok, receiveAll } from '../_support/core.js';
import { fullView, shared } from '../../core/view.js';
import { loadMaster } from '../../adapters/master/load.js';

/** Marks some of the objects in a value shared, as the core's memoised views are. */
const markSome = (v: unknown, pick: () => boolean): void => {
  if (v === null || typeof v !== 'object') return;
  if (pick()) shared(v);
  for (const x of Object.values(v)) markSome(x, pick);
};

test('answerJson is JSON.stringify, for any body, also when parts are shared and seen before', (t) => {
  fc.assert(fc.property(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 4 })), fc.infiniteStream(fc.boolean()), (body, picks) => {
    const it = picks[Symbol.iterator]();
    markSome(body, () => it.next().value as boolean);
    const first = answerJson(body);
    return first === JSON.stringify(body) && answerJson(body) === first && answerJson({ ...body, extra: body }) === JSON.stringify({ ...body, extra: body });
  }), { numRuns: 300 });
  t.pass();
});

test('answerJson leaves out what JSON.stringify leaves out, and writes null in lists for it', (t) => {
  const body = { a: undefined, f: () => 1, list: shared([undefined, 1, 'x', { d: new Date(0) }]), d: new Date(5), n: null };
  t.is(answerJson(body), JSON.stringify(body));
});

test('a player\'s whole view encodes the same before and after a draw shares most of its parts', (t) => {
  const master = loadMaster();
  const ctx = { master, now: Date.UTC(2026, 10, 21, 3) };
  let s = { ...receiveAll(t, freshPlayer()), gem: 99_999 };
  for (let i = 0; i < 3; i++) {
    const view = fullView(s, ctx);
    t.is(answerJson(view), JSON.stringify(view));
    t.is(answerJson(view), JSON.stringify(view));
    s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: `j${i}` }).state;
  }
});

test('whatever the cache\'s bound (none, or smaller than one answer), answers are JSON.stringify\'s', (t) => {
  const master = loadMaster();
  const ctx = { master, now: Date.UTC(2026, 10, 21, 3) };
  const s = receiveAll(t, freshPlayer());
  t.teardown(() => setAnswerCacheBytes(16 * 1024 * 1024));
  for (const bytes of [0, 64, 4096]) {
    setAnswerCacheBytes(bytes);
    const view = fullView(s, ctx);
    t.is(answerJson(view), JSON.stringify(view), `bound ${bytes}`);
    t.is(answerJson(view), JSON.stringify(view), `bound ${bytes}, again`);
  }
});
