// The open-loop load: request k of the players' mix is due at k/rate seconds and
// is sent then, whatever the earlier ones are doing; its latency runs from when it
// was due, so a stall of the server (or of this process) is counted in full rather
// than hidden by requests not sent (no coordinated omission). Players take the
// requests in turn; a player's receives, renames and friend requests wait for its
// previous one of them (their checks need them in order). Sign-ups and the
// operator's present campaign are due on their own schedules. Everything is
// bounded: the number of requests is fixed by the rate and the length, a request
// due while --max-in-flight are unanswered is not sent (an error), and the drain
// after the last one ends by a deadline.
import seedrandom from 'seedrandom';
import type { HoshiClient } from '../../client/index.js';
import type { Admin } from './http.js';
import type { SignedUp } from './ledger.js';
import { act, chooser, ORDERED, type LoadPlayer, type MixEnv, type Outcome } from './mix.js';
import type { SoakOptions } from './options.js';
import { rowOf, type Row } from './report.js';
import { signUp } from './signup.js';
import { SLOT_SECONDS, Tally, type Sample } from './stats.js';

export interface Chained extends LoadPlayer {
  /** The player's ordered requests, one after another. */
  chain: Promise<unknown>;
}

export interface LoadEnv {
  readonly opts: SoakOptions;
  readonly players: ReadonlyArray<Chained>;
  readonly fillers: ReadonlyArray<number>;
  readonly admin: Admin;
  readonly signupClient: () => HoshiClient;
  readonly sample: (t: number) => Promise<{ sample: Sample; failure: string | null }>;
  readonly sizes: () => Promise<Record<string, number>>;
  /** A minute's row, as soon as it is complete. */
  readonly onRow: (row: Row) => void;
  readonly log: (line: string) => void;
}

export interface LoadResult {
  readonly tally: Tally;
  readonly rows: Row[];
  readonly signups: SignedUp[];
  /** The load's length (s), without the drain. */
  readonly seconds: number;
  /** Operator campaigns sent, and those that reached every active player. */
  readonly campaigns: { sent: number; full: number };
}

/** The operator's campaign: one present of a coin to every active player, often enough to refill what they receive. */
const campaignEverySeconds = (opts: SoakOptions): number | null => {
  const total = opts.mix.reduce((a, [, w]) => a + w, 0);
  const receive = opts.mix.find(([k]) => k === 'receive')?.[1] ?? 0;
  const perPlayer = (opts.rate * receive) / total / opts.players;
  // 10% more than they receive: the box slowly fills rather than empties (a full box skips the player).
  return perPlayer > 0 ? Math.max(0.5, 1 / (perPlayer * 1.1)) : null;
};

const notSent = (kind: string): Outcome => ({
  operation: kind,
  verdict: 'error',
  why: 'not sent: the load ended',
  example: '',
  applied: 'no',
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** A wait raced against something else: its timer must not keep the process alive once that has won. */
const nap = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export const runLoad = async (env: LoadEnv): Promise<LoadResult> => {
  const { opts, players } = env;
  const seconds = opts.minutes * 60;
  const tally = new Tally(Math.max(0, Math.ceil(seconds / SLOT_SECONDS) - 1));
  const rng = seedrandom.alea(opts.seed);
  const choose = chooser(opts.mix, rng);
  const mixEnv: MixEnv = { fillers: env.fillers, rng };
  const rows: Row[] = [];
  const signups: SignedUp[] = [];
  const campaigns = { sent: 0, full: 0 };
  const pending = new Set<Promise<void>>();
  let inFlight = 0;

  // A first scrape resets the lag histogram, so the first sample covers the load only.
  await env.sample(0).catch(() => undefined);
  const t0 = performance.now() + 20;
  const secondsAt = (at: number) => (at - t0) / 1000;
  /** Set when the drain gives up: what is answered later is not counted (it was counted as unanswered), and nothing more is sent. */
  let closed = false;
  const record = (dueAt: number, o: Outcome) => {
    if (closed) return;
    const now = performance.now();
    tally.answer(secondsAt(now), o.operation, now - dueAt, o.verdict, o.why, o.example);
  };
  /** Runs a due request unless too many are unanswered; `sent` says whether to count it as sent now. */
  const track = (dueAt: number, sent: boolean, run: () => Promise<void>) => {
    if (inFlight >= opts.maxInFlight) {
      tally.unanswered(secondsAt(dueAt), `dropped: ${opts.maxInFlight} requests unanswered`);
      return;
    }
    if (sent) tally.sent(secondsAt(dueAt));
    inFlight++;
    const p: Promise<void> = run()
      .catch((e: unknown) => {
        tally.error(
          secondsAt(performance.now()),
          'soak: an action threw',
          e instanceof Error ? (e.stack ?? e.message) : String(e),
        );
      })
      .finally(() => {
        inFlight--;
        pending.delete(p);
      });
    pending.add(p);
  };

  const dispatchPlayer = (k: number, dueAt: number) => {
    const p = players[k % players.length] as Chained;
    const kind = choose();
    track(dueAt, true, async () => {
      let o: Outcome;
      if (ORDERED.has(kind)) {
        // One still waiting for its turn when the load is closed is never sent (so never applied).
        const next = p.chain.then(() => (closed ? notSent(kind) : act(kind, p, mixEnv)));
        p.chain = next.catch(() => undefined);
        o = await next;
      } else {
        o = await act(kind, p, mixEnv);
      }
      record(dueAt, o);
    });
  };

  const dispatchSignup = (n: number, dueAt: number) => {
    // Each step of the flow is counted as sent when it is due (record below).
    track(dueAt, false, async () => {
      const s = await signUp(n, dueAt, {
        client: env.signupClient,
        open: () => !closed,
        record: (due, o) => {
          if (!closed) tally.sent(secondsAt(due));
          record(due, o);
        },
      });
      if (s) signups.push(s);
    });
  };

  const activeIds = players.map((p) => p.ledger.playerId);
  const dispatchCampaign = (dueAt: number) => {
    track(dueAt, true, async () => {
      campaigns.sent++;
      let o: Outcome;
      try {
        // At most 1,000 players a list (the operator API's bound).
        let sent = 0;
        let failure = '';
        for (let i = 0; i < activeIds.length && failure === ''; i += 1000) {
          const r = await env.admin.post('/admin/presents', {
            playerIds: activeIds.slice(i, i + 1000),
            grant: { kind: 'gold', objectId: 0, amount: 1 },
            title: 'Soak',
            message: 'Thank you for playing.',
          });
          const code = r.body?.['resultCode'];
          if (r.status === 200 && code === 0) sent += Number(r.body?.['sent'] ?? 0);
          else failure = `HTTP ${r.status} resultCode ${String(code)}`;
        }
        if (sent === activeIds.length) campaigns.full++;
        o =
          failure === ''
            ? { operation: 'adminDeliverPresents', verdict: 'ok', why: '', example: '', applied: 'yes' }
            : {
                operation: 'adminDeliverPresents',
                verdict: 'error',
                why: failure,
                example: failure,
                applied: 'unknown',
              };
      } catch (e) {
        o = {
          operation: 'adminDeliverPresents',
          verdict: 'error',
          why: 'network',
          example: e instanceof Error ? e.message : String(e),
          applied: 'unknown',
        };
      }
      record(dueAt, o);
    });
  };

  // Three schedules, each a count of requests due at fixed intervals from t0.
  const schedules = [
    { every: 1000 / opts.rate, total: Math.floor(opts.rate * seconds), next: 0, fire: dispatchPlayer },
    {
      every: opts.signupsPerSecond > 0 ? 1000 / opts.signupsPerSecond : Infinity,
      total: Math.floor(opts.signupsPerSecond * seconds),
      next: 0,
      fire: dispatchSignup,
    },
    ...(() => {
      const every = campaignEverySeconds(opts);
      return every === null
        ? []
        : [
            {
              every: every * 1000,
              total: Math.floor(seconds / every),
              next: 0,
              fire: (_k: number, at: number) => dispatchCampaign(at),
            },
          ];
    })(),
  ];

  // Scrapes: a sample every few seconds (at least 6 in a short run), each its own small request.
  const scrapeMs = Math.max(1000, Math.min(opts.scrapeSeconds * 1000, (seconds * 1000) / 6));
  let scraping = true;
  let stopScraping: () => void = () => undefined;
  const stopped = new Promise<void>((r) => {
    stopScraping = r;
  });
  const scraper = (async () => {
    // Bounded: the load's length plus the longest drain.
    const count = Math.ceil((seconds * 1000 + opts.timeoutMs * (opts.retries + 1) + 15_000) / scrapeMs);
    for (let i = 1; scraping && i <= count; i++) {
      const at = t0 + i * scrapeMs;
      await Promise.race([nap(Math.max(0, at - performance.now())), stopped]);
      if (!scraping) break;
      try {
        const r = await env.sample(secondsAt(performance.now()));
        tally.sample(r.sample);
        if (r.failure !== null) tally.error(r.sample.t, 'metrics scrape failed', r.failure);
      } catch (e) {
        tally.error(secondsAt(performance.now()), 'metrics scrape failed', e instanceof Error ? e.message : String(e));
      }
    }
  })();

  // A row at each whole minute before the end; the last row comes after the drain.
  const fullMinutes = Math.ceil(seconds / 60) - 1;
  const minuteRows = (async () => {
    for (let m = 1; m <= fullMinutes; m++) {
      await sleep(Math.max(0, t0 + m * 60_000 - performance.now()));
      const disk = await env.sizes().catch(() => ({}));
      const row = rowOf(tally, (m - 1) * 60, m * 60, m, disk);
      rows.push(row);
      env.onRow(row);
    }
  })();

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      let nextAt = Infinity;
      for (const s of schedules) {
        while (s.next < s.total && t0 + s.next * s.every <= now) {
          s.fire(s.next, t0 + s.next * s.every);
          s.next++;
        }
        if (s.next < s.total) nextAt = Math.min(nextAt, t0 + s.next * s.every);
      }
      if (nextAt === Infinity) return resolve();
      setTimeout(tick, Math.max(0, Math.min(10, nextAt - now)));
    };
    tick();
  });
  await sleep(Math.max(0, t0 + seconds * 1000 - performance.now()));

  // The drain: every request sent gets its answer or its timeout; past the deadline, what is left is an error.
  const deadline = opts.timeoutMs * (opts.retries + 1) + 15_000;
  const drained = await Promise.race([Promise.all([...pending]).then(() => true), nap(deadline).then(() => false)]);
  if (!drained) {
    env.log(`${pending.size} requests still unanswered ${deadline} ms after the load ended`);
    for (let i = 0; i < pending.size; i++) tally.unanswered(seconds, 'unanswered when the load ended');
    closed = true;
  }
  await minuteRows;
  scraping = false;
  stopScraping();
  await scraper;
  const last = rowOf(tally, fullMinutes * 60, Infinity, opts.minutes, await env.sizes().catch(() => ({})));
  rows.push(last);
  env.onRow(last);
  return { tally, rows, signups, seconds, campaigns };
};
