// The soak's command line: the table --help prints, and the options it becomes.
import { userInfo } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag, int, num, str, UsageError, type CommandSpec, type Parsed } from '../args.js';
import { KINDS, type Kind } from './mix.js';

export const DEFAULT_MIX = 'read=60,draw=15,receive=5,sale=8,friend=6,rename=6';

export const SPEC: CommandSpec = {
  command: 'npm run soak --',
  summary:
    "A long open-loop load on the real server (a child process): seeded players, a live game's mix, sign-ups; a row a minute (latency, errors, RSS, heap, event-loop lag, on-disk sizes); then a SIGKILL, a restart on the same data and a check that every acknowledged write is there and that resent keyed POSTs get their kept answers. Exits 1 on any error or failed check.",
  options: {
    minutes: {
      type: 'string',
      value: 'N',
      default: '40',
      description: 'length of the load (fractions allowed: 0.25 is 15 s)',
    },
    rate: {
      type: 'string',
      value: 'R',
      default: '300',
      description:
        "requests a second of the players' mix, sent at their scheduled times whatever earlier ones are doing",
    },
    players: {
      type: 'string',
      value: 'N',
      default: '32',
      description: 'active players (seeded with gems, tickets, candies, presents)',
    },
    clients: {
      type: 'string',
      value: 'N',
      default: '32',
      description:
        "keep-alive connections the players' requests share (player i uses connection i mod N); each answers in order",
    },
    filler: {
      type: 'string',
      value: 'N',
      default: '2000',
      description: "filler players stored beside them (new accounts; the friend requests' targets)",
    },
    history: {
      type: 'string',
      value: 'full|short',
      default: 'full',
      description:
        "the active players' draw history at the start: full (gacha.historyMax records: a seasoned player, whose state no longer grows) or short (the bench's few draws: the states grow through the first half hour at this mix)",
    },
    presents: {
      type: 'string',
      value: 'N',
      default: '100',
      description: "presents in each active player's box at the start (an operator campaign keeps it filled)",
    },
    'signups-per-second': {
      type: 'string',
      value: 'R',
      default: '1',
      description: 'new players a second: sign-up, log-in, get_all, the box, its presents received, a tip',
    },
    mix: {
      type: 'string',
      value: 'LIST',
      default: DEFAULT_MIX,
      description: `the mix's weights, kind=weight comma-separated (${KINDS.join(', ')})`,
    },
    store: {
      type: 'string',
      value: 'file|pg',
      default: 'file',
      description:
        'the JSON-file store in a fresh temporary DATA_DIR, or PostgreSQL in a fresh schema (dropped at the end)',
    },
    'checkpoint-seconds': {
      type: 'string',
      value: 'S',
      default: '60',
      description: 'CHECKPOINT_INTERVAL_SECONDS of the file store',
    },
    'database-url': {
      type: 'string',
      value: 'URL',
      default: 'postgres://127.0.0.1:5432/test',
      description: "with --store pg; without a user in it, PGUSER's or the login name",
    },
    root: {
      type: 'string',
      value: 'DIR',
      defaultText: 'this checkout',
      description:
        'run the server (and seed with the storage code) of another checkout, e.g. a git worktree with node_modules linked',
    },
    out: {
      type: 'string',
      value: 'FILE',
      description: 'write the table, totals, check and verdict: JSON when FILE ends in .json, else markdown',
    },
    resend: {
      type: 'string',
      value: 'K',
      default: '3',
      description: "after the restart, resend each player's last K acknowledged keyed POSTs with their keys",
    },
    'timeout-ms': {
      type: 'string',
      value: 'MS',
      default: '30000',
      description: 'a request unanswered this long is an error',
    },
    retries: {
      type: 'string',
      value: 'N',
      default: '0',
      description: "the typed client's retries (0: every 503/409/429 is counted as an error)",
    },
    'max-in-flight': {
      type: 'string',
      value: 'N',
      default: '5000',
      description:
        'a request due while this many are unanswered is not sent (counted as an error): the load stays bounded when the server stalls',
    },
    'scrape-seconds': {
      type: 'string',
      value: 'S',
      default: '5',
      description: 'how often /metrics and /proc/<pid>/status are read',
    },
    seed: { type: 'string', value: 'S', default: 'soak', description: "the seed of the mix's choices" },
    keep: { type: 'boolean', description: 'keep the DATA_DIR (or the schema) instead of removing it' },
  },
};

export interface SoakOptions {
  readonly minutes: number;
  readonly rate: number;
  readonly players: number;
  readonly clients: number;
  readonly filler: number;
  readonly presents: number;
  readonly history: 'full' | 'short';
  readonly signupsPerSecond: number;
  readonly mix: ReadonlyArray<readonly [Kind, number]>;
  readonly store: 'file' | 'pg';
  readonly checkpointSeconds: number;
  readonly databaseUrl: string;
  /** The checkout whose server runs (absolute). */
  readonly root: string;
  readonly out: string | undefined;
  readonly resend: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxInFlight: number;
  readonly scrapeSeconds: number;
  readonly seed: string;
  readonly keep: boolean;
}

export const OWN_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const parseMix = (text: string): Array<readonly [Kind, number]> => {
  const out: Array<readonly [Kind, number]> = [];
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const [k, w] = part.split('=');
    const weight = Number(w);
    if (!KINDS.includes(k as Kind)) throw new UsageError(`--mix: no kind ${JSON.stringify(k)} (${KINDS.join(', ')})`);
    if (!Number.isFinite(weight) || weight < 0)
      throw new UsageError(`--mix: ${k}'s weight must be a non-negative number`);
    out.push([k as Kind, weight]);
  }
  if (out.reduce((a, [, w]) => a + w, 0) <= 0) throw new UsageError('--mix: the weights add up to nothing');
  return out;
};

/** The URL with a user: PGUSER, else the login name (node-postgres reads only USER, which may be unset). */
const withUser = (text: string): string => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--database-url is not a URL: ${text}`);
  }
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost')
    throw new UsageError('--database-url: the soak uses a local PostgreSQL only (127.0.0.1)');
  if (url.username === '') url.username = process.env['PGUSER'] || userInfo().username;
  return url.toString();
};

const positive = (p: Parsed, name: string): number => {
  const v = num(p, name);
  if (!(v > 0)) throw new UsageError(`--${name} must be above 0`);
  return v;
};

export const toOptions = (p: Parsed): SoakOptions => {
  const store = str(p, 'store');
  if (store !== 'file' && store !== 'pg')
    throw new UsageError(`--store must be file or pg, got ${JSON.stringify(store)}`);
  const players = int(p, 'players');
  if (players < 1) throw new UsageError('--players must be at least 1');
  const resend = int(p, 'resend');
  // The file store keeps 32 answers per player (IDEMPOTENCY_KEYS_PER_SCOPE); a log-in after the restart takes one.
  if (resend > 16) throw new UsageError("--resend must be at most 16 (a player's kept answers are bounded)");
  const history = str(p, 'history');
  if (history !== 'full' && history !== 'short') throw new UsageError('--history must be full or short');
  const signups = num(p, 'signups-per-second');
  if (signups < 0) throw new UsageError('--signups-per-second must not be negative');
  return {
    minutes: positive(p, 'minutes'),
    rate: positive(p, 'rate'),
    players,
    clients: Math.max(1, Math.min(players, int(p, 'clients'))),
    filler: int(p, 'filler'),
    presents: Math.min(1000, int(p, 'presents')),
    signupsPerSecond: signups,
    history,
    mix: parseMix(str(p, 'mix')),
    store,
    checkpointSeconds: int(p, 'checkpoint-seconds'),
    databaseUrl: withUser(str(p, 'database-url')),
    root: resolvePath(typeof p.values['root'] === 'string' ? p.values['root'] : OWN_ROOT),
    out: typeof p.values['out'] === 'string' ? p.values['out'] : undefined,
    resend,
    timeoutMs: Math.max(1, int(p, 'timeout-ms')),
    retries: int(p, 'retries'),
    maxInFlight: Math.max(1, int(p, 'max-in-flight')),
    scrapeSeconds: positive(p, 'scrape-seconds'),
    seed: str(p, 'seed'),
    keep: flag(p, 'keep'),
  };
};
