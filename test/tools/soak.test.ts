// The soak (npm run soak, issue 36) run for seconds: it reports its rows, no errors
// and a passing check after its SIGKILL and restart; and that check does catch a
// lost write. No latency or memory figure is asserted: they depend on the machine.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { problemsOf, type Stored } from '../../scripts/soak/check.js';
import { Ledger } from '../../scripts/soak/ledger.js';
import type { Report } from '../../scripts/soak/report.js';
import { bucketQuantile, histogramBuckets } from '../../scripts/soak/http.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('a 12-second soak: rows, every answer counted, no errors, and every acknowledged write found after the restart', async (t) => {
  t.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-soak-test-'));
  const out = join(dir, 'soak.json');
  try {
    const args = [
      '--minutes',
      '0.2',
      '--rate',
      '40',
      '--players',
      '4',
      '--clients',
      '4',
      '--filler',
      '10',
      '--checkpoint-seconds',
      '4',
      '--resend',
      '3',
      '--out',
      out,
    ];
    const { code, err } = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/soak.ts', ...args], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let e = '';
      p.stderr.on('data', (d: Buffer) => {
        e += d.toString();
      });
      p.on('close', (c) => resolve({ code: c, err: e }));
    });
    t.is(code, 0, err);
    const r = JSON.parse(readFileSync(out, 'utf8')) as Report;
    t.true(r.rows.length >= 1);
    const last = r.rows.at(-1);
    t.is(last?.minute, 0.2);
    t.true(r.totals.sent >= 0.2 * 60 * 40, "at least the players' scheduled requests were sent");
    t.is(r.totals.answered, r.totals.sent, 'every request answered');
    t.is(r.totals.errors, 0, JSON.stringify(r.errors));
    t.true((r.byOperation['drawPlayerGacha'] ?? 0) > 0 && (r.byOperation['signupPlayer'] ?? 0) > 0);
    t.true(
      r.rows.every((row) => row.rssMb !== null && row.rssMb > 0),
      "the server's RSS was read",
    );
    t.true(r.check.passed, r.check.problems.join('\n'));
    t.regex(r.check.summary.join('\n'), /12 acknowledged keyed POSTs resent/);
    t.true(r.passed);
    const lag = r.verdict.targets.find((x) => x.name === 'event-loop lag p99');
    t.regex(
      lag?.value ?? '',
      /^\d+\.\d ms; the p99 of the \d+ scraped/,
      "the run-wide p99 from the server's delay histogram",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the restart check names a lost draw, sale, receive and rename, and accepts the state that has them', (t) => {
  const l = new Ledger(5, 0, [], 3);
  l.draw([101, 102]);
  l.sales.acked = 2;
  l.received.push(77);
  l.named(1, 'Soaked', 'acked');
  const base = { totalDraws: 10, candy: 100 };
  const state = (o: { draws: number; candy: number; box: number[]; name: string; history: number[][] }): Stored => ({
    playerId: 5,
    account: { uuid: 'u' },
    items: [{ itemId: 2001, amount: o.candy }],
    presents: o.box.map((managedPresentId) => ({ managedPresentId })),
    received: [{ managedPresentId: 77 }],
    gachaStats: [{ gachaId: 2, totalDraws: o.draws }],
    gachaHistory: o.history.map((characterIds) => ({ gachaId: 2, characterIds })),
    battleParties: [{ managedBattlePartyId: 1, name: o.name }],
    friends: [],
    tutorial: { tips: [] },
  });
  t.deepEqual(
    problemsOf(l, base, state({ draws: 11, candy: 98, box: [], name: 'Soaked', history: [[9], [101, 102]] })),
    [],
  );
  const lost = problemsOf(l, base, state({ draws: 10, candy: 100, box: [77], name: 'Old', history: [[9]] }));
  t.is(lost.length, 5, lost.join('\n'));
  t.regex(lost.join('\n'), /0 draws counted, 1 acknowledged/);
  t.regex(lost.join('\n'), /not all in the draw history/);
  t.regex(lost.join('\n'), /0 candies gone, 2 sales acknowledged/);
  t.regex(lost.join('\n'), /received presents are back in the box/);
  t.regex(lost.join('\n'), /named "Old", the last acknowledged name is "Soaked"/);
});

test("a histogram's buckets are read from a scrape, and a window's quantile interpolated within its bucket as histogram_quantile does", (t) => {
  const text = [
    '# TYPE hoshi_event_loop_delay_seconds histogram',
    'hoshi_event_loop_delay_seconds_bucket{le="0.01"} 90',
    'hoshi_event_loop_delay_seconds_bucket{le="0.05"} 99',
    'hoshi_event_loop_delay_seconds_bucket{le="0.1"} 100',
    'hoshi_event_loop_delay_seconds_bucket{le="+Inf"} 100',
    'hoshi_event_loop_delay_seconds_sum 1',
    'hoshi_event_loop_delay_seconds_count 100',
    'other_bucket{le="1"} 5',
  ].join('\n');
  const after = histogramBuckets(text, 'hoshi_event_loop_delay_seconds');
  t.deepEqual(after, [
    [0.01, 90],
    [0.05, 99],
    [0.1, 100],
    [Infinity, 100],
  ]);
  t.is(histogramBuckets(text, 'absent'), undefined);
  // 100 observations: the 99th is the last of the (0.01, 0.05] bucket's nine.
  t.is(bucketQuantile(after!, undefined, 0.99), 0.05);
  t.is(bucketQuantile(after!, undefined, 0.5), 0.01 * (50 / 90));
  // Only what came after an earlier scrape: of 10 new observations, 9 in (0.01, 0.05], 1 in (0.05, 0.1].
  const before: Array<readonly [number, number]> = [
    [0.01, 90],
    [0.05, 90],
    [0.1, 90],
    [Infinity, 90],
  ];
  t.is(bucketQuantile(after!, before, 0.5), 0.01 + 0.04 * (5 / 9));
  t.is(bucketQuantile(after!, after, 0.99), null, 'nothing observed between two equal scrapes');
  t.is(
    bucketQuantile(
      [
        [0.1, 0],
        [Infinity, 10],
      ],
      undefined,
      0.99,
    ),
    0.1,
    'beyond the last bound: the last bound',
  );
});
