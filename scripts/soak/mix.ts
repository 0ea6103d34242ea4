// The players' mix, one request an action, through the typed client (every POST
// with an Idempotency-Key the soak makes, so it can resend it after the restart):
// reads (get_all and the other GETs a game screen makes), single gacha draws,
// present receives, item sales, friend requests (a proposal to a filler player,
// then its cancellation) and battle-party renames. Each action notes in the
// player's ledger what was acknowledged and what is unknown.
import { ClientError, type CallResult, type HoshiClient, type Json, type OperationName } from '../../client/index.js';
import { RESULT_CODES, type ErrorName } from '../../core/errors.js';
import { CANDY, GACHA_ID } from '../bench/players.js';
import type { Ledger } from './ledger.js';

export const KINDS = ['read', 'draw', 'receive', 'sale', 'friend', 'rename'] as const;
export type Kind = (typeof KINDS)[number];
/** Kinds whose checks need a player's requests of them in order (each waits for the one before). */
export const ORDERED: ReadonlySet<Kind> = new Set(['receive', 'friend', 'rename']);

export interface LoadPlayer {
  readonly client: HoshiClient;
  readonly ledger: Ledger;
}

/** How a request ended, as the soak counts it; `applied` says what the ledger may assume. */
export interface Outcome {
  /** The operation's name (adminDeliverPresents for the operator's campaign). */
  readonly operation: string;
  readonly verdict: 'ok' | 'refusal' | 'error';
  readonly why: string;
  readonly example: string;
  readonly applied: 'yes' | 'no' | 'unknown';
}

type Got<N extends OperationName> = { readonly r: CallResult<N> } | { readonly thrown: string };

/** Runs a call; an exception (no answer, not the envelope) becomes a value. */
export const attempt = async <N extends OperationName>(f: () => Promise<CallResult<N>>): Promise<Got<N>> => {
  try {
    return { r: await f() };
  } catch (e) {
    return {
      thrown: e instanceof ClientError ? `${e.kind}: ${e.message}` : e instanceof Error ? e.message : String(e),
    };
  }
};

const codeOf = (name: ErrorName): number => RESULT_CODES[name].resultCode;

/** Judges an answer: expected game refusals (by name) are refusals, anything else not 0 an error. */
export const judge = <N extends OperationName>(
  operation: N,
  got: Got<N>,
  expected: ReadonlyArray<ErrorName> = [],
): Outcome => {
  if ('thrown' in got)
    return {
      operation,
      verdict: 'error',
      why: got.thrown.split(':')[0] ?? 'thrown',
      example: got.thrown,
      applied: 'unknown',
    };
  const r = got.r;
  if (r.ok) return { operation, verdict: 'ok', why: '', example: '', applied: 'yes' };
  const name = expected.find((n) => codeOf(n) === r.resultCode);
  if (name)
    return { operation, verdict: 'refusal', why: `${r.resultCode} ${name}`, example: r.resultMessage, applied: 'no' };
  // A 5xx other than 105 (nothing changed) may have been applied before it failed.
  const applied = r.status >= 500 && r.resultCode !== codeOf('DB_ERROR') ? 'unknown' : 'no';
  return {
    operation,
    verdict: 'error',
    why: `HTTP ${r.status} resultCode ${r.resultCode}`,
    example: r.resultMessage,
    applied,
  };
};

const errorOutcome = (operation: OperationName, why: string, example: string): Outcome => ({
  operation,
  verdict: 'error',
  why,
  example,
  applied: 'no',
});

/** The answer as the client handed it over: JSON whatever its declared type. */
const asJson = (v: unknown): Json => v as Json;

/** A weighted choice over the mix. */
export const chooser = (mix: ReadonlyArray<readonly [Kind, number]>, rng: () => number): (() => Kind) => {
  const total = mix.reduce((a, [, w]) => a + w, 0);
  return () => {
    let x = rng() * total;
    for (const [k, w] of mix) if ((x -= w) < 0) return k;
    return (mix[mix.length - 1] as readonly [Kind, number])[0];
  };
};

/** The reads a game's screens make; get_all most often. */
const READS: ReadonlyArray<(c: HoshiClient) => Promise<Outcome>> = [
  async (c) => judge('getAllPlayer', await attempt(() => c.getAllPlayer())),
  async (c) => judge('getAllPlayer', await attempt(() => c.getAllPlayer())),
  async (c) => judge('getAllPlayer', await attempt(() => c.getAllPlayer())),
  async (c) => judge('getAllPlayerPresent', await attempt(() => c.getAllPlayerPresent())),
  async (c) => judge('getAllPlayerGacha', await attempt(() => c.getAllPlayerGacha())),
  async (c) => judge('getPlayerGachaBox', await attempt(() => c.getPlayerGachaBox({ gachaId: GACHA_ID }))),
  async (c) => judge('getAllPlayerBattleParty', await attempt(() => c.getAllPlayerBattleParty())),
  async (c) => judge('getAllPlayerTown', await attempt(() => c.getAllPlayerTown())),
  async (c) => judge('getHistoryPlayerGacha', await attempt(() => c.getHistoryPlayerGacha({ gachaId: GACHA_ID }))),
];

const read = (p: LoadPlayer, rng: () => number): Promise<Outcome> =>
  (READS[Math.floor(rng() * READS.length)] as (c: HoshiClient) => Promise<Outcome>)(p.client);

const draw = async (p: LoadPlayer): Promise<Outcome> => {
  const request = { gachaId: GACHA_ID, drawType: 1 as const };
  const key = crypto.randomUUID();
  const got = await attempt(() => p.client.drawPlayerGacha(request, { idempotencyKey: key }));
  const o = judge('drawPlayerGacha', got, ['GEM_IS_SHORT', 'UNLIMITED_GEM_IS_SHORT']);
  if ('r' in got && got.r.ok) {
    p.ledger.draw(got.r.value.gachaResults.map((g) => g.characterId));
    p.ledger.keyedAcked({
      operation: 'drawPlayerGacha',
      request,
      key,
      value: asJson(got.r.value),
      resend: (c, k) => c.drawPlayerGacha(request, { idempotencyKey: k }),
    });
  } else if (o.applied === 'unknown') p.ledger.draws.unknown++;
  return o;
};

const sale = async (p: LoadPlayer): Promise<Outcome> => {
  const request = { itemId: CANDY, amount: 1 };
  const key = crypto.randomUUID();
  const got = await attempt(() => p.client.salePlayerItem(request, { idempotencyKey: key }));
  const o = judge('salePlayerItem', got, ['ITEM_IS_SHORT', 'CURRENCY_LIMIT']);
  if ('r' in got && got.r.ok) {
    p.ledger.sales.acked++;
    p.ledger.keyedAcked({
      operation: 'salePlayerItem',
      request,
      key,
      value: asJson(got.r.value),
      resend: (c, k) => c.salePlayerItem(request, { idempotencyKey: k }),
    });
  } else if (o.applied === 'unknown') p.ledger.sales.unknown++;
  return o;
};

/** Receives the oldest present believed in the box (a GET: no key); with none known, reads the box. */
const receive = async (p: LoadPlayer): Promise<Outcome> => {
  const l = p.ledger;
  const id = l.box.pop();
  if (id === undefined) {
    const got = await attempt(() => p.client.getAllPlayerPresent());
    if ('r' in got && got.r.ok) l.box = got.r.value.presents.map((x) => x.managedPresentId);
    return judge('getAllPlayerPresent', got);
  }
  const got = await attempt(() => p.client.getPlayerPresent({ managedPresentId: [id] }));
  const o = judge('getPlayerPresent', got);
  if (!('r' in got) || !got.r.ok) {
    if (o.applied === 'unknown') l.receivedUnknown.push(id);
    return o;
  }
  const v = got.r.value;
  // The answer holds the box after the receive, newest first: the oldest is popped next.
  l.box = v.presents.map((x) => x.managedPresentId);
  if (v.receivedPresents.some((x) => x.managedPresentId === id)) {
    l.received.push(id);
    return o;
  }
  const miss = v.notReceived.find((x) => x.managedPresentId === id);
  const reason = miss?.reason ?? 'absent from the answer';
  // A full currency or an expired present is the game's refusal; a present the soak saw in the box and
  // never received before that is now missing or "already received" is not.
  if (reason === 'CAPACITY' || reason === 'EXPIRED')
    return { ...o, verdict: 'refusal', why: `not received: ${reason}`, applied: 'no' };
  return errorOutcome(
    'getPlayerPresent',
    `present not received: ${reason}`,
    `present ${id}: ${miss?.resultMessage ?? ''}`,
  );
};

/** Renames the player's battle parties in turn (a player's renames never overlap: they run in order). */
const rename = async (p: LoadPlayer): Promise<Outcome> => {
  const l = p.ledger;
  const seq = l.nameSeq++;
  const request = { managedBattlePartyId: 1 + (seq % 15), name: `S${l.index}.${seq}` };
  const key = crypto.randomUUID();
  const got = await attempt(() => p.client.setNamePlayerBattleParty(request, { idempotencyKey: key }));
  const o = judge('setNamePlayerBattleParty', got);
  if ('r' in got && got.r.ok) {
    l.named(request.managedBattlePartyId, request.name, 'acked');
    l.keyedAcked({
      operation: 'setNamePlayerBattleParty',
      request,
      key,
      value: asJson(got.r.value),
      resend: (c, k) => c.setNamePlayerBattleParty(request, { idempotencyKey: k }),
    });
  } else if (o.applied === 'unknown') l.named(request.managedBattlePartyId, request.name, 'unknown');
  return o;
};

/**
 * A friend request to a filler player, then its cancellation, then the next filler:
 * at most one request of each player is pending, so no one's request limit fills.
 */
const friend = async (p: LoadPlayer, fillers: ReadonlyArray<number>): Promise<Outcome> => {
  const f = p.ledger.friend;
  const proposing = f.step % 2 === 0;
  const target = proposing
    ? (fillers[(p.ledger.index * 131 + f.step / 2) % fillers.length] as number)
    : (f.target as number);
  const request = { playerId: target };
  const key = crypto.randomUUID();
  const got = proposing
    ? await attempt(() => p.client.proposePlayerFriend(request, { idempotencyKey: key }))
    : await attempt(() => p.client.cancelPlayerFriend(request, { idempotencyKey: key }));
  // A cancellation after a proposal of unknown outcome may find nothing to cancel.
  const expected: ErrorName[] = proposing ? ['FRIEND_LIMIT'] : f.unsure.has(target) ? ['NOT_FOUND'] : [];
  const o = judge(proposing ? 'proposePlayerFriend' : 'cancelPlayerFriend', got, expected);
  f.target = target;
  if ('r' in got && got.r.ok) {
    f.expect = proposing ? 'proposed' : 'none';
    f.unsure.delete(target);
    f.acked++;
    p.ledger.keyedAcked({
      operation: proposing ? 'proposePlayerFriend' : 'cancelPlayerFriend',
      request,
      key,
      value: asJson(got.r.value),
      resend: proposing
        ? (c, k) => c.proposePlayerFriend(request, { idempotencyKey: k })
        : (c, k) => c.cancelPlayerFriend(request, { idempotencyKey: k }),
    });
    f.step++;
  } else if (o.verdict === 'refusal') {
    // Refused: nothing pending with it (a proposal moves on to the next filler).
    f.expect = 'none';
    f.unsure.delete(target);
    f.step += proposing ? 2 : 1;
  } else {
    // An error: applied or not, or (a definite one) what is pending is no longer what the ledger says.
    f.unsure.add(target);
    f.step++;
  }
  return o;
};

export interface MixEnv {
  readonly fillers: ReadonlyArray<number>;
  readonly rng: () => number;
}

export const act = (kind: Kind, p: LoadPlayer, env: MixEnv): Promise<Outcome> => {
  switch (kind) {
    case 'read':
      return read(p, env.rng);
    case 'draw':
      return draw(p);
    case 'sale':
      return sale(p);
    case 'receive':
      return receive(p);
    case 'rename':
      return rename(p);
    // Without filler players there is no one to ask: a read instead.
    case 'friend':
      return env.fillers.length > 0 ? friend(p, env.fillers) : read(p, env.rng);
  }
};
