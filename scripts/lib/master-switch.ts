// A game-data switch under load: clients draw on two server processes sharing one
// PostgreSQL database while a version with a new price takes effect at a scheduled
// instant. Every answer is classed by its request's time (the envelope's serverTime,
// whole seconds, the instant falling on one) and by the price it charged: before the
// instant the old price, from it the new one, with no failure and no restart.
import { formatTime } from '../../core/time.js';
import type { Child } from './server-process.js';

type Body = Record<string, unknown>;

export interface SwitchOptions {
  readonly servers: ReadonlyArray<Child>;
  readonly adminToken: string;
  readonly clients: number;
  /** Seconds of drawing before the instant, and after it. */
  readonly beforeSeconds: number;
  readonly afterSeconds: number;
  /** The game's time zone (master data's game.timezoneOffsetMinutes). */
  readonly offsetMinutes: number;
  /** The master files' gachas as the servers started with them. */
  readonly gachas: ReadonlyArray<{ gachaId: number; cost: { paidSingleGem: number | null } }>;
}

export interface SwitchReport {
  readonly draws: number;
  readonly failures: number;
  readonly before: { readonly draws: number; readonly wrongPrice: number };
  readonly after: { readonly draws: number; readonly wrongPrice: number };
  readonly byServer: ReadonlyArray<number>;
  /** The first failed answer, when any. */
  readonly firstFailure: string | null;
  readonly oldPrice: number;
  readonly newPrice: number;
  readonly at: string;
}

const GACHA = 2;
const PAID_SINGLE = 2;

const call = async (
  server: Child,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await r.json()) as Body;
};

const must = async (p: Promise<Body>, what: string): Promise<Body> => {
  const b = await p;
  if (b['resultCode'] !== 0) throw new Error(`${what}: ${JSON.stringify(b).slice(0, 300)}`);
  return b;
};

/** A player with paid gems for every draw it will make, logged in (its requests alternate between the servers). */
const player = async (o: SwitchOptions, i: number) => {
  const [a, b] = [o.servers[0] as Child, o.servers[1 % o.servers.length] as Child];
  const uuid = `5ca1ab1e-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const su = await must(call(a, 'POST', '/api/player/signup', { uuid, platform: 1 }), 'signup');
  const li = await must(call(b, 'POST', '/api/player/login', { uuid, accessToken: su['accessToken'] }), 'login');
  const admin = { Authorization: `Bearer ${o.adminToken}` };
  const grant = { kind: 'paidGem', objectId: 0, amount: 900_000 };
  await must(
    call(a, 'POST', '/admin/presents', { playerId: su['playerId'], grant, title: 'Load', message: '' }, admin),
    'grant',
  );
  const sid = { 'X-STAR-SESSION-ID': li['sessionId'] as string };
  const list = await must(call(a, 'GET', '/api/player/present/get_all', undefined, sid), 'presents');
  const ids = (list['presents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId).join(',');
  await must(call(b, 'GET', `/api/player/present/get?managedPresentId=${ids}`, undefined, sid), 'receive');
  return sid;
};

const paidGemOf = (b: Body): number | undefined => (b['player'] as { paidGem?: number } | undefined)?.paidGem;

export const runSwitch = async (o: SwitchOptions): Promise<SwitchReport> => {
  const admin = { Authorization: `Bearer ${o.adminToken}` };
  const first = o.servers[0] as Child;
  const sids = await Promise.all(Array.from({ length: o.clients }, (_, i) => player(o, i)));
  const oldPrice = o.gachas.find((g) => g.gachaId === GACHA)?.cost.paidSingleGem ?? 0;
  const newPrice = oldPrice + 30;
  const gachas = o.gachas.map((g) =>
    g.gachaId === GACHA ? { ...g, cost: { ...g.cost, paidSingleGem: newPrice } } : g,
  );
  const p = await must(
    call(
      first,
      'POST',
      '/admin/master/versions',
      { files: { 'gachas.json': JSON.stringify(gachas) }, note: 'switch under load' },
      admin,
    ),
    'publish',
  );
  // The instant on a whole second, so that a serverTime (whole seconds) tells which side a request is on.
  const at = Math.ceil((Date.now() + o.beforeSeconds * 1000) / 1000) * 1000;
  await must(
    call(
      first,
      'POST',
      '/admin/master/schedule',
      { version: p['version'], at: formatTime(at, o.offsetMinutes) },
      admin,
    ),
    'schedule',
  );
  const end = at + o.afterSeconds * 1000;
  const atText = formatTime(at, o.offsetMinutes);
  const tally = {
    draws: 0,
    failures: 0,
    before: { draws: 0, wrongPrice: 0 },
    after: { draws: 0, wrongPrice: 0 },
    byServer: o.servers.map(() => 0),
    firstFailure: null as string | null,
  };
  await Promise.all(
    sids.map(async (sid, c) => {
      let gems: number | undefined;
      for (let n = c; Date.now() < end; n++) {
        const s = n % o.servers.length;
        const r = await call(
          o.servers[s] as Child,
          'POST',
          '/api/player/gacha/draw',
          { gachaId: GACHA, drawType: PAID_SINGLE },
          sid,
        );
        tally.draws++;
        if (r['resultCode'] !== 0) {
          tally.failures++;
          tally.firstFailure ??= JSON.stringify(r).slice(0, 300);
          gems = undefined;
          continue;
        }
        tally.byServer[s] = (tally.byServer[s] ?? 0) + 1;
        const now = paidGemOf(r);
        if (gems !== undefined && now !== undefined) {
          const side = (r['serverTime'] as string) < atText ? tally.before : tally.after;
          side.draws++;
          if (gems - now !== (side === tally.before ? oldPrice : newPrice)) side.wrongPrice++;
        }
        gems = now;
      }
    }),
  );
  return { ...tally, oldPrice, newPrice, at: atText };
};
