// The observed rates' 95% Wilson score interval (core/gacha/observed.ts): the textbook
// values, inside [0, 1] at 0 and n successes, and about 95% coverage at the published
// rates for the pull counts an operator sees (exact, summed over the binomial).
import test from 'ava';
import { wilsonInterval } from '../../../core/gacha/observed.js';

const fixed = (w: { low: number; high: number }) => [w.low.toFixed(4), w.high.toFixed(4)];

test('wilsonInterval: 2 of 24 is 2.32%–25.85%; 0 of 10 reaches 27.75%; no trial says nothing', (t) => {
  t.deepEqual(fixed(wilsonInterval(2, 24)), ['0.0232', '0.2585']);
  t.deepEqual(fixed(wilsonInterval(3, 100)), ['0.0103', '0.0845']);
  t.deepEqual(wilsonInterval(0, 10).low, 0);
  t.is(wilsonInterval(0, 10).high.toFixed(4), '0.2775');
  t.deepEqual(fixed(wilsonInterval(10, 10)), ['0.7225', '1.0000']);
  t.is(wilsonInterval(10, 10).high, 1);
  t.deepEqual(wilsonInterval(0, 0), { low: 0, high: 1 });
});

/** P(p inside the interval) when k ~ Binomial(n, p). */
const coverage = (p: number, n: number): number => {
  let sum = 0;
  let logPmf = n * Math.log(1 - p);
  for (let k = 0; k <= n; k++) {
    if (k > 0) logPmf += Math.log((n - k + 1) / k) + Math.log(p / (1 - p));
    const w = wilsonInterval(k, n);
    if (p >= w.low && p <= w.high) sum += Math.exp(logPmf);
  }
  return sum;
};

test('wilsonInterval covers the published rates about 95% of the time, from 24 pulls to 1,000', (t) => {
  for (const n of [24, 100, 1000])
    for (const p of [0.03, 0.03124, 0.185, 0.19265, 0.5, 0.785]) {
      const c = coverage(p, n);
      t.true(c > 0.93 && c < 0.98, `p ${p}, n ${n}: ${c}`);
    }
});
