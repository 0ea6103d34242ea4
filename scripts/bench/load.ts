// The load: autocannon at 32 connections over loopback, with the request mixes.
// Each connection walks its mix in order; every pass through the mix moves the
// connection to the next player (round robin over the players given), so a
// spread mix touches every player evenly and the hot mix only one.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { BenchPlayer } from './players.js';
import { CANDY, GACHA_ID } from './players.js';

export interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Responses that were not HTTP 2xx or not resultCode 0. */
  readonly failed: number;
  readonly requests: number;
}

type Req = autocannon.Request;
interface Ctx {
  player?: BenchPlayer;
}

export const CONNECTIONS = 32;

/** Requests whose answer was not resultCode 0, per run (a write that did not happen is not a write). */
let bad = 0;
let badSample = '';
/** When the last answer of a run came (a run of a set amount ends there). */
let lastAnswerAt = 0;
const check = (status: number, body: string) => {
  lastAnswerAt = performance.now();
  if (status !== 200 || !body.startsWith('{"resultCode":0,')) {
    bad++;
    if (!badSample) badSample = `${status} ${body.slice(0, 300)}`;
  }
};

const session = (p: BenchPlayer) => ({ 'x-star-session-id': p.sessionId, 'content-type': 'application/json' });

/** With keys (the bench's --keyed), every POST carries an Idempotency-Key of its own, as the typed client sends. */
let keyed = false;
export const sendKeys = (on: boolean): void => {
  keyed = on;
};

/** Per-player cursors, so receives take each present once and upgrades rotate characters. */
const cursors = new Map<number, { present: number; character: number }>();
const cursorOf = (p: BenchPlayer) => {
  let c = cursors.get(p.playerId);
  if (!c) {
    c = { present: 0, character: 0 };
    cursors.set(p.playerId, c);
  }
  return c;
};
export let presentsExhausted = 0;

const get = (path: (p: BenchPlayer) => string, first = false, next?: () => BenchPlayer): Req => ({
  method: 'GET',
  setupRequest: (req, context) => {
    const ctx = context as Ctx;
    if (first && next) ctx.player = next();
    const p = ctx.player as BenchPlayer;
    return { ...req, method: 'GET', path: path(p), headers: session(p) };
  },
  onResponse: (status, body) => check(status, body),
});

const post = (path: string, body: (p: BenchPlayer) => unknown, first = false, next?: () => BenchPlayer): Req => ({
  method: 'POST',
  setupRequest: (req, context) => {
    const ctx = context as Ctx;
    if (first && next) ctx.player = next();
    const p = ctx.player as BenchPlayer;
    const headers = keyed ? { ...session(p), 'idempotency-key': randomUUID() } : session(p);
    return { ...req, method: 'POST', path, headers, body: JSON.stringify(body(p)) };
  },
  onResponse: (status, body) => check(status, body),
});

const roundRobin = (players: ReadonlyArray<BenchPlayer>) => {
  let i = 0;
  return () => players[i++ % players.length] as BenchPlayer;
};

/** get_all, present get_all, gacha get_all, box/get, battle party and town reads. */
export const readMix = (players: ReadonlyArray<BenchPlayer>): Req[] => {
  const next = roundRobin(players);
  return [
    get(() => '/api/player/get_all', true, next),
    get(() => '/api/player/present/get_all'),
    get(() => '/api/player/gacha/get_all'),
    get(() => `/api/player/gacha/box/get?gachaId=${GACHA_ID}`),
    get(() => '/api/player/battle_party/get_all'),
    get(() => '/api/player/town/get_all'),
  ];
};

/** A single draw, a present received, a facility collection and a character upgrade. */
export const writeMix = (players: ReadonlyArray<BenchPlayer>): Req[] => {
  const next = roundRobin(players);
  return [
    post('/api/player/gacha/draw', () => ({ gachaId: GACHA_ID, drawType: 1 }), true, next),
    get((p) => {
      const c = cursorOf(p);
      if (c.present >= p.presentIds.length) presentsExhausted++;
      const id = p.presentIds[Math.min(c.present++, p.presentIds.length - 1)];
      return `/api/player/present/get?managedPresentId=${id}`;
    }),
    post('/api/player/town_facility/item_up', (p) => ({ managedTownFacilityId: p.facilityId, itemNo: 0, amount: 1 })),
    post('/api/player/character/upgrade', (p) => {
      const c = cursorOf(p);
      return {
        managedCharacterId: p.characterIds[c.character++ % p.characterIds.length],
        items: [{ itemId: CANDY, amount: 1 }],
      };
    }),
  ];
};

/** Single draws only, round robin over the players (the size check: scripts/bench/pg-size.ts). */
export const drawMix = (players: ReadonlyArray<BenchPlayer>): Req[] => {
  const next = roundRobin(players);
  return [post('/api/player/gacha/draw', () => ({ gachaId: GACHA_ID, drawType: 1 }), true, next)];
};

/** The baseline's requests: a GET and a POST of the same sizes, echoed (`pad`: bytes added to the GET's answer). */
export const echoMix = (players: ReadonlyArray<BenchPlayer>, pad = 0): Req[] => {
  const next = roundRobin(players);
  return [
    get(() => `/echo?gachaId=2${pad > 0 ? `&pad=${pad}` : ''}`, true, next),
    post('/echo', (p) => ({ managedCharacterId: p.characterIds[0], items: [{ itemId: CANDY, amount: 1 }] })),
  ];
};

export const runLoad = async (
  url: string,
  requests: Req[],
  opts: { duration?: number; amount?: number; connections?: number },
): Promise<Figures & { badSample: string }> => {
  bad = 0;
  badSample = '';
  const t0 = performance.now();
  const r = await autocannon({
    url,
    connections: opts.connections ?? CONNECTIONS,
    pipelining: 1,
    requests,
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.duration ?? 5 }),
  });
  // A run of a set amount is timed here, to its last answer: autocannon ends such a run on
  // its one-second tick and gives whole seconds (800 answers in 0.6 s read as 800 a second).
  const seconds = opts.amount !== undefined ? (lastAnswerAt - t0) / 1000 : r.duration;
  const requestsDone = r.requests.total;
  return {
    rps: requestsDone / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: bad + r.errors + r.timeouts,
    requests: requestsDone,
    badSample,
  };
};
