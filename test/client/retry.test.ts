// The typed client's retries, against the real app where the server can be made to
// give the answer (a rate limit, a request still running, a store that fails once),
// and with an injected fetch where only the network can: which answers are retried,
// that a POST's retries reuse its Idempotency-Key and apply once, and the back-off.
// Waits go through an injected sleep that records them: the tests count events and
// never race the clock.
import test from 'ava';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { StorageError, type Commit, type CommitResult } from '../../adapters/storage/storage.js';
import {
  ClientError,
  createClient,
  type ClientEvent,
  type HoshiClient,
  type OperationName,
  type CallResult,
  type AnswerOf,
} from '../../client/index.js';
import { clientOf, newUuid, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';

/** The standard gacha, open at the harness's time; a player's first ten-draw of it is discounted. */
const GACHA = 2;
const FIRST_TEN = (() => {
  const g = master().gacha.get(GACHA);
  if (!g) throw new Error(`fixtures: no gacha ${GACHA}`);
  return g.cost.firstTenGem ?? g.cost.tenGem;
})();

/** A store whose next commit can be held (to keep a request running) or failed once (a transient store error). */
class ControlledStorage extends MemoryStorage {
  private hold: { entered: () => void; release: Promise<void> } | null = null;
  private failNext = false;

  /** Holds the next commit until `release` is called; `entered` resolves when a commit is waiting. */
  holdNextCommit(): { entered: Promise<void>; release: () => void } {
    let entered!: () => void;
    let release!: () => void;
    const enteredP = new Promise<void>((r) => {
      entered = r;
    });
    this.hold = {
      entered,
      release: new Promise<void>((r) => {
        release = r;
      }),
    };
    return { entered: enteredP, release };
  }

  failNextCommit(): void {
    this.failNext = true;
  }

  override async commit(c: Commit): Promise<CommitResult> {
    const h = this.hold;
    if (h) {
      this.hold = null;
      h.entered();
      await h.release;
    }
    if (this.failNext) {
      this.failNext = false;
      throw new StorageError('disk unavailable (test)');
    }
    return super.commit(c);
  }
}

/** A client whose waits are recorded (and optionally acted on) instead of slept, and whose events are kept. */
const recording = (
  h: Harness,
  opts: Parameters<typeof clientOf>[1] = {},
  onSleep: (ms: number) => void | Promise<void> = () => undefined,
) => {
  const events: ClientEvent[] = [];
  const sleeps: number[] = [];
  const client = clientOf(h, {
    onEvent: (e) => events.push(e),
    sleep: async (ms) => {
      sleeps.push(ms);
      await onSleep(ms);
    },
    random: () => 1,
    ...opts,
  });
  return { client, events, sleeps };
};

const value = <N extends OperationName>(r: CallResult<N>): AnswerOf<N> => {
  if (!r.ok) throw new Error(`expected success, got ${r.resultCode} (${r.resultMessage})`);
  return r.value;
};

const login = async (client: HoshiClient) => {
  const uuid = newUuid();
  const su = value(await client.signupPlayer({ uuid, platform: 1 }));
  value(await client.loginPlayer({ uuid, accessToken: su.accessToken }));
  return su.playerId;
};

/** Receives the welcome presents (gems for draws). */
const receiveAll = async (client: HoshiClient) => {
  const ids = value(await client.getAllPlayerPresent()).presents.map((p) => p.managedPresentId);
  value(await client.getPlayerPresent({ managedPresentId: ids, stepCode: 0 }));
};

const gemOf = async (client: HoshiClient): Promise<number> => value(await client.getAllPlayer()).player.gem;

const attempts = (events: ReadonlyArray<ClientEvent>, operation: OperationName) =>
  events.filter((e) => e.kind === 'attempt' && e.operation === operation);
const retries = (events: ReadonlyArray<ClientEvent>) =>
  events.filter((e): e is Extract<ClientEvent, { kind: 'retry' }> => e.kind === 'retry');

test('a 429 with Retry-After is retried once, after the wait it names', async (t) => {
  const h = await startHarness({
    cfg: {
      rateLimits: {
        session: { rate: 1, burst: 2 },
        address: { rate: 1000, burst: 1000 },
        account: { rate: 1, burst: 10 },
      },
    },
  });
  t.teardown(() => h.close());
  // The server's rate limiter runs on the harness clock: waiting is moving it.
  const { client, events, sleeps } = recording(h, {}, (ms) => {
    h.clock.now += ms;
  });
  await login(client);
  value(await client.getAllPlayer());
  value(await client.getAllPlayer());
  events.length = 0;
  const third = await client.getAllPlayer();
  t.true(third.ok, 'served after the wait');
  t.is(attempts(events, 'getAllPlayer').length, 2);
  t.deepEqual(
    retries(events).map((e) => [e.reason, e.delayMs]),
    [['rate-limited', 1000]],
  );
  t.deepEqual(sleeps, [1000], 'the wait is Retry-After (1 s), not the back-off');
});

test('a Retry-After longer than the policy allows is not waited for: the 429 is the answer', async (t) => {
  const h = await startHarness({
    cfg: {
      rateLimits: {
        session: { rate: 0.01, burst: 1 },
        address: { rate: 1000, burst: 1000 },
        account: { rate: 1, burst: 10 },
      },
    },
  });
  t.teardown(() => h.close());
  const { client, events, sleeps } = recording(h, { backoff: { maxRetryAfterMs: 5000 } });
  await login(client);
  value(await client.getAllPlayer());
  const limited = await client.getAllPlayer();
  t.false(limited.ok);
  if (!limited.ok) t.deepEqual([limited.status, limited.resultCode], [429, 111]);
  t.deepEqual(sleeps, []);
  t.is(retries(events).length, 0);
});

test('409 (110, the same key still running) is retried with the same Idempotency-Key and gets the first answer', async (t) => {
  const storage = new ControlledStorage();
  const h = await startHarness({ storage });
  t.teardown(() => h.close());
  const key = 'draw-in-flight-1';
  let first: Promise<{ status: number; body: Record<string, unknown> }> | undefined;
  let release: (() => void) | undefined;
  // The wait lets the first request finish, as time would.
  const { client, events } = recording(h, {}, async () => {
    release?.();
    await first;
  });
  await login(client);
  await receiveAll(client);
  const gems = await gemOf(client);
  // The first request with the key: sent raw, held in its commit.
  const held = storage.holdNextCommit();
  release = held.release;
  first = h.call(
    'POST',
    '/api/player/gacha/draw',
    { gachaId: GACHA, drawType: 3 },
    { 'X-STAR-SESSION-ID': client.sessionId ?? '', 'Idempotency-Key': key },
  );
  await held.entered;
  events.length = 0;
  const r = await client.drawPlayerGacha({ gachaId: GACHA, drawType: 3 }, { idempotencyKey: key });
  const firstBody = (await first).body;
  t.deepEqual(
    retries(events).map((e) => [e.reason, e.idempotencyKey]),
    [['in-progress', key]],
  );
  t.deepEqual(
    attempts(events, 'drawPlayerGacha').map((e) => e.idempotencyKey),
    [key, key],
  );
  t.deepEqual(value(r).gachaResults, firstBody['gachaResults'], 'the stored answer of the first request');
  t.is(await gemOf(client), gems - FIRST_TEN, 'one ten-draw paid (the first, discounted)');
});

test('a network failure after the server applied a POST is retried with the same key and applied once', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const keys: string[] = [];
  let dropNext = false;
  // Sends the request for real, then loses the answer on the way back.
  const lossy: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (init?.method === 'POST') keys.push(new Headers(init.headers).get('Idempotency-Key') ?? '');
    if (dropNext) {
      dropNext = false;
      await res.text();
      throw new TypeError('fetch failed (the test dropped the answer)');
    }
    return res;
  };
  const { client, events, sleeps } = recording(h, { fetch: lossy });
  await login(client);
  await receiveAll(client);
  const gems = await gemOf(client);
  keys.length = 0;
  dropNext = true;
  const r = await client.drawPlayerGacha({ gachaId: GACHA, drawType: 3 });
  t.is(value(r).gachaResults.length, 10);
  t.is(keys.length, 2);
  t.is(keys[0], keys[1], 'the retry reuses the key');
  t.deepEqual(
    retries(events).map((e) => e.reason),
    ['network'],
  );
  t.deepEqual(sleeps, [100], 'the first back-off');
  t.is(await gemOf(client), gems - FIRST_TEN, 'applied once');
});

test('503 (105, the store failed; nothing changed) is retried and then applied', async (t) => {
  const storage = new ControlledStorage();
  const h = await startHarness({ storage });
  t.teardown(() => h.close());
  const { client, events } = recording(h);
  await login(client);
  await receiveAll(client);
  const gems = await gemOf(client);
  storage.failNextCommit();
  const r = await client.drawPlayerGacha({ gachaId: GACHA, drawType: 3 });
  t.true(r.ok);
  t.deepEqual(
    retries(events).map((e) => e.reason),
    ['unavailable'],
  );
  t.is(await gemOf(client), gems - FIRST_TEN);
});

test('102 is never retried, nor a 409 that is not 110 (gems short), nor 101', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { client, events } = recording(h);
  await login(client);
  events.length = 0;
  // The types allow any number as an id; the server refuses 0 (drawType 9 would not compile).
  const bad = await client.drawPlayerGacha({ gachaId: 0, drawType: 3 });
  t.false(bad.ok);
  if (!bad.ok) t.deepEqual([bad.status, bad.resultCode], [400, 102]);
  const short = await client.drawPlayerGacha({ gachaId: GACHA, drawType: 3 });
  if (!short.ok) t.deepEqual([short.status, short.resultCode], [409, 445]);
  else t.fail('a new player cannot pay a ten-draw before receiving presents');
  const wrongSalt = clientOf(h, { salt: 'not-the-salt', onEvent: (e) => events.push(e) });
  const hashed = await wrongSalt.signupPlayer({ uuid: newUuid(), platform: 1 });
  if (!hashed.ok) t.is(hashed.resultCode, 101);
  else t.fail('a wrong salt is refused');
  t.is(events.filter((e) => e.kind === 'attempt').length, 3, 'one attempt each');
  t.is(retries(events).length, 0);
});

test('attempts are bounded: the last answer is returned (or a network error thrown) after 1 + retries attempts, the back-off doubling', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  let calls = 0;
  const unavailable: typeof fetch = async () => {
    calls++;
    return new Response(JSON.stringify({ resultCode: 105, resultMessage: 'down', serverTime: '', serverVersion: 7 }), {
      status: 503,
    });
  };
  const a = recording(h, { fetch: unavailable, retries: 3 });
  const r = await a.client.getAllPlayer();
  t.false(r.ok);
  if (!r.ok) t.is(r.resultCode, 105);
  t.is(calls, 4);
  t.deepEqual(a.sleeps, [100, 200, 400], 'random() = 1: the whole delay, doubling');

  const down: typeof fetch = async () => {
    calls++;
    throw new TypeError('connect ECONNREFUSED');
  };
  calls = 0;
  const b = recording(h, { fetch: down, retries: 2 });
  const err = await t.throwsAsync(() => b.client.drawPlayerGacha({ gachaId: GACHA, drawType: 1 }), {
    instanceOf: ClientError,
  });
  t.is(err?.kind, 'network');
  t.is(calls, 3);
  const keys = new Set(b.events.map((e) => e.idempotencyKey));
  t.is(keys.size, 1, 'one key for the logical call');
});

test('a GET that changes state (present/get) is not retried after a network failure; a read-only GET is', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  let calls = 0;
  const down: typeof fetch = async () => {
    calls++;
    throw new TypeError('socket hang up');
  };
  const { client } = recording(h, { fetch: down, retries: 2 });
  await t.throwsAsync(() => client.getPlayerPresent({ managedPresentId: [1] }), { instanceOf: ClientError });
  t.is(calls, 1);
  calls = 0;
  await t.throwsAsync(() => client.getAllPlayer(), { instanceOf: ClientError });
  t.is(calls, 3);
});

test('the request hash is accepted by a server that requires it: sign-up to a draw, GET queries and POST bodies', async (t) => {
  const h = await startHarness({ cfg: { requestHashRequired: true } });
  t.teardown(() => h.close());
  const client = createClient({ baseUrl: h.url, salt: h.salt, checkAnswers: true });
  const playerId = await login(client);
  await receiveAll(client);
  const drawn = value(await client.drawPlayerGacha({ gachaId: GACHA, drawType: 3 }));
  t.is(drawn.gachaResults.length, 10);
  t.is(value(await client.getAllPlayer()).player.playerId, playerId);
  const unsalted = createClient({ baseUrl: h.url });
  const refused = await unsalted.signupPlayer({ uuid: newUuid(), platform: 1 });
  t.false(refused.ok);
  if (!refused.ok) t.deepEqual([refused.status, refused.resultCode], [400, 101]);
});
