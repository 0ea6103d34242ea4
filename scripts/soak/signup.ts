// A new player arriving: sign-up (a new uuid), log-in, get_all, the present box,
// its welcome presents received, a tutorial tip. Each step is timed from when it
// was due (the first from its scheduled time, the others as they follow); the
// flow stops at the first step that fails.
import { createClient, type HoshiClient } from '../../client/index.js';
import type { SignedUp } from './ledger.js';
import { attempt, judge, type Outcome } from './mix.js';

export interface SignupEnv {
  readonly client: () => HoshiClient;
  /** Counts a step: when it was due (performance.now()) and how it ended. */
  readonly record: (dueAt: number, outcome: Outcome) => void;
  /** False once the load has ended: the flow sends nothing more. */
  readonly open: () => boolean;
}

export const signupClient =
  (baseUrl: string, salt: string, f: typeof fetch, timeoutMs: number, retries: number) => (): HoshiClient =>
    createClient({ baseUrl, salt, fetch: f, timeoutMs, retries });

/** The tip every new player is shown (any id up to the master data's maxTipId). */
const TIP = 1;

export const signUp = async (n: number, dueAt: number, env: SignupEnv): Promise<SignedUp | null> => {
  const c = env.client();
  const uuid = crypto.randomUUID();
  const step = async (due: number, run: () => Promise<Outcome>): Promise<boolean> => {
    if (!env.open()) return false;
    const o = await run();
    env.record(due, o);
    return o.verdict === 'ok';
  };
  let playerId = 0;
  let accessToken = '';
  const signedUp = await step(dueAt, async () => {
    const got = await attempt(() => c.signupPlayer({ uuid, platform: 1, name: `Soak${n}` }));
    if ('r' in got && got.r.ok) ({ playerId, accessToken } = got.r.value);
    return judge('signupPlayer', got);
  });
  if (!signedUp) return null;
  const player: SignedUp = { playerId, uuid, received: [], tip: false };
  if (
    !(await step(performance.now(), async () =>
      judge('loginPlayer', await attempt(() => c.loginPlayer({ uuid, accessToken }))),
    ))
  )
    return player;
  if (!(await step(performance.now(), async () => judge('getAllPlayer', await attempt(() => c.getAllPlayer())))))
    return player;
  let ids: number[] = [];
  const listed = await step(performance.now(), async () => {
    const got = await attempt(() => c.getAllPlayerPresent());
    if ('r' in got && got.r.ok) ids = got.r.value.presents.map((p) => p.managedPresentId);
    return judge('getAllPlayerPresent', got);
  });
  if (!listed) return player;
  if (ids.length > 0) {
    const got = await step(performance.now(), async () => {
      const r = await attempt(() => c.getPlayerPresent({ managedPresentId: ids }));
      if ('r' in r && r.r.ok) player.received = r.r.value.receivedPresents.map((p) => p.managedPresentId);
      return judge('getPlayerPresent', r);
    });
    if (!got) return player;
  }
  await step(performance.now(), async () => {
    const got = await attempt(() => c.addPlayerTutorialTip({ tipId: TIP }));
    if ('r' in got && got.r.ok) player.tip = true;
    return judge('addPlayerTutorialTip', got);
  });
  return player;
};

export const SIGNUP_TIP = TIP;
