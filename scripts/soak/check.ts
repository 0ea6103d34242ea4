// After the SIGKILL and the restart: every acknowledged write must be in the state
// the operator API reads (GET /admin/players/:id), and the last acknowledged keyed
// POSTs of each player, resent with their keys and bodies, must get their kept
// answers back and change nothing. Writes whose outcome was unknown (no answer, a
// 5xx) widen what is allowed; none are expected in a clean run.
import { isDeepStrictEqual } from 'node:util';
import * as t from 'io-ts';
import { createClient, type HoshiClient, type Json } from '../../client/index.js';
import { benchToken, benchUuid, CANDY, GACHA_ID } from '../bench/players.js';
import type { Admin } from './http.js';
import type { Ledger, SignedUp } from './ledger.js';
import { attempt } from './mix.js';
import { SIGNUP_TIP } from './signup.js';

/** The parts of a stored player the checks read (times in ms, as stored). */
const Stored = t.type({
  playerId: t.number,
  account: t.type({ uuid: t.string }),
  items: t.array(t.type({ itemId: t.number, amount: t.number })),
  presents: t.array(t.type({ managedPresentId: t.number })),
  received: t.array(t.type({ managedPresentId: t.number })),
  gachaStats: t.array(t.type({ gachaId: t.number, totalDraws: t.number })),
  gachaHistory: t.array(t.type({ gachaId: t.number, characterIds: t.array(t.number) })),
  battleParties: t.array(t.type({ managedBattlePartyId: t.number, name: t.string })),
  friends: t.array(t.type({ playerId: t.number, state: t.string })),
  tutorial: t.type({ tips: t.array(t.number) }),
});
export type Stored = t.TypeOf<typeof Stored>;

/** A player's whole stored state (raw) and the parts checked; a string says why it could not be read. */
export const readStored = async (admin: Admin, playerId: number): Promise<{ raw: Json; s: Stored } | string> => {
  let r: Awaited<ReturnType<Admin['get']>>;
  try {
    r = await admin.get(`/admin/players/${playerId}`);
  } catch (e) {
    return `GET /admin/players/${playerId} got no answer: ${e instanceof Error ? e.message : String(e)}`;
  }
  const raw = r.body?.['state'];
  if (r.status !== 200 || raw === undefined)
    return `GET /admin/players/${playerId} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`;
  const d = Stored.decode(raw);
  return d._tag === 'Right' ? { raw, s: d.right } : `player ${playerId}'s stored state lacks a checked field`;
};

/** What the checks compare against: each active player's counts before the load. */
export interface Baseline {
  readonly totalDraws: number;
  readonly candy: number;
}

export const baselineOf = (s: Stored): Baseline => ({
  totalDraws: s.gachaStats.find((g) => g.gachaId === GACHA_ID)?.totalDraws ?? 0,
  candy: s.items.find((i) => i.itemId === CANDY)?.amount ?? 0,
});

/** Whether `want` appears in order within `have` (not necessarily side by side). */
const isSubsequence = (want: ReadonlyArray<string>, have: ReadonlyArray<string>): boolean => {
  let i = 0;
  for (const h of have) if (i < want.length && h === want[i]) i++;
  return i === want.length;
};

/** The problems of one active player's state against its ledger. */
export const problemsOf = (l: Ledger, base: Baseline, s: Stored): string[] => {
  const out: string[] = [];
  const who = `player ${l.playerId}`;
  const b = baselineOf(s);
  const drew = b.totalDraws - base.totalDraws;
  if (drew < l.draws.acked || drew > l.draws.acked + l.draws.unknown)
    out.push(`${who}: ${drew} draws counted, ${l.draws.acked} acknowledged (${l.draws.unknown} unknown)`);
  const history = s.gachaHistory.filter((h) => h.gachaId === GACHA_ID).map((h) => h.characterIds.join(','));
  if (
    !isSubsequence(
      l.draws.recent.map((ids) => ids.join(',')),
      history,
    )
  )
    out.push(`${who}: the last ${l.draws.recent.length} acknowledged draws are not all in the draw history`);
  const sold = base.candy - b.candy;
  if (sold < l.sales.acked || sold > l.sales.acked + l.sales.unknown)
    out.push(`${who}: ${sold} candies gone, ${l.sales.acked} sales acknowledged (${l.sales.unknown} unknown)`);
  const box = new Set(s.presents.map((p) => p.managedPresentId));
  const stillThere = l.received.filter((id) => box.has(id));
  if (stillThere.length > 0)
    out.push(
      `${who}: ${stillThere.length} received presents are back in the box (${stillThere.slice(0, 5).join(', ')})`,
    );
  const kept = new Set(s.received.map((p) => p.managedPresentId));
  const recent = l.received.slice(-50).filter((id) => !kept.has(id));
  if (recent.length > 0)
    out.push(
      `${who}: ${recent.length} of the last acknowledged receives are not among the received presents (${recent.slice(0, 5).join(', ')})`,
    );
  for (const [party, n] of l.names) {
    const name = s.battleParties.find((p) => p.managedBattlePartyId === party)?.name;
    const allowed = [...(n.acked === null ? [] : [n.acked]), ...n.unknown];
    if (n.acked !== null && name !== undefined && !allowed.includes(name))
      out.push(
        `${who}: battle party ${party} is named ${JSON.stringify(name)}, the last acknowledged name is ${JSON.stringify(n.acked)}`,
      );
  }
  const f = l.friend;
  if (f.target !== null && !f.unsure.has(f.target)) {
    const state = s.friends.find((x) => x.playerId === f.target)?.state ?? 'none';
    if (state !== f.expect)
      out.push(`${who}: its relation with player ${f.target} is ${state}, acknowledged ${f.expect}`);
  }
  // Every other proposal was cancelled (or refused), unless a request of unknown outcome left it so.
  const extra = s.friends.filter((x) => x.state === 'proposed' && x.playerId !== f.target && !f.unsure.has(x.playerId));
  if (extra.length > 0)
    out.push(`${who}: friend requests to ${extra.map((x) => x.playerId).join(', ')} pending, none acknowledged last`);
  return out;
};

/** Resends a player's last keyed POSTs: each must answer its kept answer, and the state must not change. */
const resendProblems = async (
  c: HoshiClient,
  admin: Admin,
  l: Ledger,
): Promise<{ problems: string[]; resent: number }> => {
  const who = `player ${l.playerId}`;
  const before = await readStored(admin, l.playerId);
  if (typeof before === 'string') return { problems: [before], resent: 0 };
  const out: string[] = [];
  for (const k of l.keyed) {
    const got = await attempt(() => k.resend(c, k.key));
    if ('thrown' in got) {
      out.push(`${who}: ${k.operation} resent with key ${k.key}: ${got.thrown}`);
      continue;
    }
    if (!got.r.ok) {
      out.push(
        `${who}: ${k.operation} resent with key ${k.key} answered ${got.r.status}/${got.r.resultCode} (${got.r.resultMessage}), kept answer 0`,
      );
      continue;
    }
    if (!isDeepStrictEqual(got.r.value, k.value))
      out.push(
        `${who}: ${k.operation} resent with key ${k.key} answered another body: ${JSON.stringify(got.r.value).slice(0, 160)} … kept ${JSON.stringify(k.value).slice(0, 160)} …`,
      );
  }
  const after = await readStored(admin, l.playerId);
  if (typeof after === 'string') out.push(after);
  else if (!isDeepStrictEqual(after.raw, before.raw)) {
    const a = after.raw as Record<string, Json>;
    const b = before.raw as Record<string, Json>;
    const changed = Object.keys({ ...a, ...b }).filter((key) => !isDeepStrictEqual(a[key], b[key]));
    out.push(
      `${who}: resending ${l.keyed.length} keyed POSTs changed the state (${changed.join(', ')}): applied twice`,
    );
  }
  return { problems: out, resent: l.keyed.length };
};

const signupProblems = async (admin: Admin, p: SignedUp): Promise<string[]> => {
  const got = await readStored(admin, p.playerId);
  if (typeof got === 'string') return [`signed-up player ${p.playerId}: ${got}`];
  const out: string[] = [];
  if (got.s.account.uuid !== p.uuid.toLowerCase())
    out.push(`signed-up player ${p.playerId}: uuid ${got.s.account.uuid}, signed up as ${p.uuid}`);
  const box = new Set(got.s.presents.map((x) => x.managedPresentId));
  if (p.received.some((id) => box.has(id)))
    out.push(`signed-up player ${p.playerId}: received welcome presents are back in the box`);
  if (p.tip && !got.s.tutorial.tips.includes(SIGNUP_TIP))
    out.push(`signed-up player ${p.playerId}: the acknowledged tip ${SIGNUP_TIP} is missing`);
  return out;
};

/** Runs `f` over the items, `n` at a time. */
const inBatches = async <T, R>(items: ReadonlyArray<T>, n: number, f: (x: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += n) out.push(...(await Promise.all(items.slice(i, i + n).map(f))));
  return out;
};

export interface CheckResult {
  readonly passed: boolean;
  readonly summary: string[];
  readonly problems: string[];
}

export const checkAfterRestart = async (
  url: string,
  salt: string,
  admin: Admin,
  players: ReadonlyArray<{ readonly ledger: Ledger; readonly base: Baseline }>,
  signups: ReadonlyArray<SignedUp>,
): Promise<CheckResult> => {
  const problems: string[] = [];
  let resent = 0;
  await inBatches(players, 8, async ({ ledger: l, base }) => {
    // A new session, as a client after the crash would make; the resends come through it.
    const c = createClient({ baseUrl: url, salt, retries: 0, timeoutMs: 60_000 });
    const li = await attempt(() =>
      c.loginPlayer({ uuid: benchUuid(l.playerId), accessToken: benchToken(l.playerId), platform: 1 }),
    );
    if (!('r' in li) || !li.r.ok) {
      problems.push(
        `player ${l.playerId}: log-in after the restart failed: ${'r' in li && !li.r.ok ? `${li.r.status}/${li.r.resultCode}` : 'thrown' in li ? li.thrown : ''}`,
      );
      return;
    }
    const got = await readStored(admin, l.playerId);
    if (typeof got === 'string') {
      problems.push(got);
      return;
    }
    problems.push(...problemsOf(l, base, got.s));
    const r = await resendProblems(c, admin, l);
    problems.push(...r.problems);
    resent += r.resent;
  });
  for (const ps of await inBatches(signups, 8, (p) => signupProblems(admin, p))) problems.push(...ps);
  const sum = (f: (l: Ledger) => number) => players.reduce((a, p) => a + f(p.ledger), 0);
  const unknown = sum(
    (l) =>
      l.draws.unknown +
      l.sales.unknown +
      l.receivedUnknown.length +
      [...l.names.values()].reduce((a, n) => a + n.unknown.length, 0) +
      l.friend.unsure.size,
  );
  return {
    passed: problems.length === 0,
    problems,
    summary: [
      `${players.length} active players: ${sum((l) => l.draws.acked)} acknowledged draws counted in the gacha's total and the newest ${sum((l) => l.draws.recent.length)} (up to 20 a player) found in order in the draw history; ${sum((l) => l.sales.acked)} item sales in the candy count; ${sum((l) => l.received.length)} received presents gone from the box; the last acknowledged of ${sum((l) => l.nameSeq)} battle-party renames is each party's name; the last of ${sum((l) => l.friend.acked)} acknowledged friend requests and cancellations is each player's relation${unknown > 0 ? ` (${unknown} writes of unknown outcome allowed either way)` : ''}`,
      `${resent} acknowledged keyed POSTs resent with their Idempotency-Keys (the last ${players[0]?.ledger.keyed.length ?? 0} of each player, after a new log-in): the kept answer each time, the stored state unchanged`,
      `${signups.length} signed-up players present with their uuids, their received welcome presents gone from the box and their tips kept`,
    ],
  };
};
