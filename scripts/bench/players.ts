// Makes the players the load runs against, straight through FileStorage (no HTTP):
// "active" players are seasoned through the real reducers (welcome presents
// received, draws made, a coin mint bought and full, candies, presents to
// receive); "filler" players are new accounts that only make the store big. Once
// the server runs, logIn logs the active players in through the typed client
// (client/), as a game client does, after a fresh sign-up through it checks the
// account path end to end.
import { FileStorage } from '../../adapters/storage/file.js';
import type { Storage } from '../../adapters/storage/storage.js';
import { createClient } from '../../client/index.js';
import { createPlayer, MANAGED_ID_SPAN, MY_CODE_LENGTH } from '../../core/account.js';
import type { Master } from '../../core/master/index.js';
import { run } from '../../core/operation.js';
import { operationByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import { tokenHash } from '../../core/secret.js';
import { sendPresent } from '../../core/shared/grant.js';
import { setItem } from '../../core/shared/pay.js';
import type { PlayerState } from '../../core/state.js';
import { DAY } from '../../core/time.js';

export const GACHA_ID = 2;
export const CANDY = 2001;
/** Presents each active player holds for the write mix's receives. */
const PRESENTS = 40;

/** The request-hash salt the bench's servers run with (REQUEST_HASH_SALT): the client hashes every request. */
export const BENCH_SALT = 'bench-request-hash-salt';

/** A player as generated: its device's credentials are benchUuid/benchToken of its id. */
export interface StoredPlayer {
  readonly playerId: number;
  readonly facilityId: number;
  readonly characterIds: ReadonlyArray<number>;
  readonly presentIds: ReadonlyArray<number>;
}
/** A player logged in: what the load sends as X-STAR-SESSION-ID. */
export interface BenchPlayer extends StoredPlayer {
  readonly sessionId: string;
}

const hex12 = (id: number): string => id.toString(16).padStart(12, '0');
/** A player's device uuid, as a client sends it (a UUID). */
export const benchUuid = (playerId: number): string => `00000000-0000-4000-8000-${hex12(playerId)}`;
/** A player's access token (a UUID, as the service issues them). */
export const benchToken = (playerId: number): string => `b0000000-0000-4000-8000-${hex12(playerId)}`;

const step = (m: Master, s: PlayerState, name: string, req: unknown, seed: string, now: number): PlayerState => {
  const op = operationByName(name);
  if (!op) throw new Error(`no operation ${name}`);
  const r = run(op, s, req, rngFromSeed(seed), now, { master: m, others: [] });
  if (r._tag === 'Left') throw new Error(`bench setup: ${name} failed with ${r.left.code}`);
  return r.right.state;
};

const newPlayer = (m: Master, playerId: number, now: number): PlayerState => {
  const r = createPlayer(
    m,
    {
      playerId,
      uuid: benchUuid(playerId),
      platform: 1,
      name: `P${playerId}`,
      stepCode: 0,
      accessToken: benchToken(playerId),
    },
    rngFromSeed(`bench-${playerId}`),
    now,
  );
  if (r._tag === 'Left') throw new Error(`bench setup: createPlayer failed with ${r.left.code}`);
  return r.right;
};

/** A seasoned player ready for the write mix; `presents` sized for what the run will receive. */
export const activePlayer = (
  m: Master,
  playerId: number,
  now: number,
  presents = PRESENTS,
): { state: PlayerState; player: StoredPlayer } => {
  let s = newPlayer(m, playerId, now - DAY);
  s = step(
    m,
    s,
    'getPlayerPresent',
    { managedPresentId: s.presents.map((p) => p.managedPresentId).join(',') },
    'recv',
    now - DAY,
  );
  s = { ...s, gem: m.game.currencyMax.gem };
  for (let i = 0; i < 8; i++)
    s = step(m, s, 'drawPlayerGacha', { gachaId: GACHA_ID, drawType: 3 }, `draw${playerId}-${i}`, now - DAY + i);
  s = step(m, s, 'buyAllPlayerTownFacility', { facilities: [{ facilityId: 1, amount: 1 }] }, 'buy', now - DAY);
  const facility = s.facilities.at(-1);
  if (!facility) throw new Error('bench setup: no facility');
  s = step(
    m,
    s,
    'openUpPlayerTownFacility',
    { managedTownFacilityId: facility.managedTownFacilityId },
    'open',
    now - DAY,
  );
  // A day old: its storage is full, so every collection of one coin takes one.
  s = { ...s, gem: m.game.currencyMax.gem, gold: 50_000_000, items: setItem(s.items, CANDY, 9999) };
  const presentIds: number[] = [];
  for (let i = 0; i < presents; i++) {
    const sent = sendPresent(
      s,
      { kind: 'gold', objectId: 0, amount: 1 },
      { title: 'Bench', message: '', source: 'operator', deadline: null },
      now - DAY,
    );
    s = sent.state;
    presentIds.push(sent.present.managedPresentId);
  }
  const characterIds = s.characters.slice(0, 8).map((c) => c.managedCharacterId);
  return { state: s, player: { playerId, facilityId: facility.managedTownFacilityId, characterIds, presentIds } };
};

/** A hot player for `requests` of the write mix: a present for each of its receives (one request in four), and a few over. */
export const hotPlayer = (
  m: Master,
  playerId: number,
  now: number,
  requests: number,
): { state: PlayerState; player: StoredPlayer } => activePlayer(m, playerId, now, Math.ceil(requests / 4) + 8);

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A friend code unique to the id (base 32 in the code alphabet), so fillers need no rng. */
const codeOf = (id: number): string => {
  let out = '';
  for (let n = id; out.length < MY_CODE_LENGTH; n = Math.floor(n / 32)) out = CODE_ALPHABET[n % 32] + out;
  return `Z${out.slice(1)}`;
};

/** A new account made by re-numbering a template (createPlayer per filler would dominate the generation). */
const fillerFrom = (t: PlayerState, playerId: number): PlayerState => {
  const shift = (playerId - t.playerId) * MANAGED_ID_SPAN;
  return {
    ...t,
    playerId,
    name: `P${playerId}`,
    myCode: codeOf(playerId),
    nextManagedId: t.nextManagedId + shift,
    account: { ...t.account, uuid: benchUuid(playerId), tokenHash: tokenHash(benchToken(playerId)) },
    presents: t.presents.map((p) => ({ ...p, managedPresentId: p.managedPresentId + shift })),
  };
};

/**
 * Writes `total` players to a new store in `dir`; every `activeEvery`-th is active.
 * Commits in batches (one journal record and one fsync each) and closes the store,
 * which checkpoints every player to its snapshot.
 */
export const generateStore = async (
  m: Master,
  dir: string,
  total: number,
  activeEvery: number,
  now: number,
  extra: ReadonlyArray<{ state: PlayerState }> = [],
): Promise<{ active: StoredPlayer[]; extra: StoredPlayer[] }> =>
  fillStore(await FileStorage.open({ dir, cacheSize: 100 }), m, total, activeEvery, now, extra);

/** Fills any storage (and closes it): the JSON files above, or a PostgreSQL schema. */
export const fillStore = async (
  store: Storage,
  m: Master,
  total: number,
  activeEvery: number,
  now: number,
  extra: ReadonlyArray<{ state: PlayerState }> = [],
  presents = PRESENTS,
): Promise<{ active: StoredPlayer[]; extra: StoredPlayer[] }> => {
  const active: StoredPlayer[] = [];
  const template = newPlayer(m, 1, now - DAY);
  const BATCH = 1000;
  let commit: { players: Array<{ state: PlayerState; expectedVersion: null }> } = { players: [] };
  const flush = async () => {
    if (commit.players.length === 0) return;
    const r = await store.commit(commit);
    if (!r.ok) throw new Error(`bench setup: commit refused: ${r.detail}`);
    commit = { players: [] };
  };
  for (let id = 1; id <= total; id++) {
    if (id % activeEvery === 0) {
      const a = activePlayer(m, id, now, presents);
      commit.players.push({ state: a.state, expectedVersion: null });
      active.push(a.player);
    } else {
      commit.players.push({ state: fillerFrom(template, id), expectedVersion: null });
    }
    if (commit.players.length >= BATCH) await flush();
  }
  const more: StoredPlayer[] = [];
  for (const e of extra) {
    commit.players.push({ state: e.state, expectedVersion: null });
    const f = e.state.facilities.at(-1);
    more.push({
      playerId: e.state.playerId,
      facilityId: f?.managedTownFacilityId ?? 0,
      characterIds: e.state.characters.slice(0, 8).map((c) => c.managedCharacterId),
      presentIds: e.state.presents.map((p) => p.managedPresentId),
    });
  }
  await flush();
  await store.close();
  return { active, extra: more };
};

/**
 * Logs the players in through the typed client against a running server (`parallel`
 * log-ins at a time), after signing a fresh device up and in through it: the bench
 * fails here, before any load, if the account path does not work as a client sees it.
 */
export const logIn = async (
  url: string,
  players: ReadonlyArray<StoredPlayer>,
  parallel = 16,
): Promise<BenchPlayer[]> => {
  const client = () => createClient({ baseUrl: url, salt: BENCH_SALT });
  const canary = client();
  const uuid = crypto.randomUUID();
  const su = await canary.signupPlayer({ uuid, platform: 1, name: 'Canary' });
  if (!su.ok) throw new Error(`bench setup: sign-up through the client failed: ${su.resultCode} ${su.resultMessage}`);
  const li = await canary.loginPlayer({ uuid, accessToken: su.value.accessToken });
  if (!li.ok) throw new Error(`bench setup: log-in through the client failed: ${li.resultCode} ${li.resultMessage}`);

  const out: BenchPlayer[] = new Array<BenchPlayer>(players.length);
  let next = 0;
  const worker = async () => {
    const c = client();
    for (let i = next++; i < players.length; i = next++) {
      const p = players[i] as StoredPlayer;
      const r = await c.loginPlayer({ uuid: benchUuid(p.playerId), accessToken: benchToken(p.playerId), platform: 1 });
      if (!r.ok)
        throw new Error(`bench setup: log-in of player ${p.playerId} failed: ${r.resultCode} ${r.resultMessage}`);
      out[i] = { ...p, sessionId: r.value.sessionId };
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, players.length) }, worker));
  return out;
};
