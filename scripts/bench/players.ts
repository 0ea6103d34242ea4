// Makes the players the load runs against, straight through FileStorage (no HTTP):
// "active" players are seasoned through the real reducers (welcome presents
// received, draws made, a coin mint bought and full, candies, presents to
// receive) and logged in (a session is committed with them, as log-in does);
// "filler" players are new accounts that only make the store big.
import { randomBytes } from 'node:crypto';
import { FileStorage } from '../../adapters/storage/file.js';
import type { Commit, Session, Storage } from '../../adapters/storage/storage.js';
import { createPlayer, MANAGED_ID_SPAN, MY_CODE_LENGTH } from '../../core/account.js';
import type { Master } from '../../core/master/index.js';
import { run } from '../../core/operation.js';
import { operationByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import { sha256 } from '../../core/secret.js';
import { sendPresent } from '../../core/shared/grant.js';
import { setItem } from '../../core/shared/pay.js';
import type { PlayerState } from '../../core/state.js';
import { DAY } from '../../core/time.js';

export const GACHA_ID = 2;
export const CANDY = 2001;
/** Presents each active player holds for the write mix's receives. */
const PRESENTS = 40;

export interface BenchPlayer {
  readonly playerId: number;
  readonly sessionId: string;
  readonly facilityId: number;
  readonly characterIds: ReadonlyArray<number>;
  readonly presentIds: ReadonlyArray<number>;
}

const step = (m: Master, s: PlayerState, name: string, req: unknown, seed: string, now: number): PlayerState => {
  const op = operationByName(name);
  if (!op) throw new Error(`no operation ${name}`);
  const r = run(op, s, req, rngFromSeed(seed), now, { master: m, others: [] });
  if (r._tag === 'Left') throw new Error(`bench setup: ${name} failed with ${r.left.code}`);
  return r.right.state;
};

const newPlayer = (m: Master, playerId: number, now: number): PlayerState => {
  const r = createPlayer(m, { playerId, uuid: `bench-${playerId}`, platform: 1, name: `P${playerId}`, stepCode: 0, tokenHash: sha256(`bench-token-${playerId}`) }, rngFromSeed(`bench-${playerId}`), now);
  if (r._tag === 'Left') throw new Error(`bench setup: createPlayer failed with ${r.left.code}`);
  return r.right;
};

/** A seasoned player ready for the write mix; `presents` sized for what the run will receive. */
export const activePlayer = (m: Master, playerId: number, now: number, presents = PRESENTS): { state: PlayerState; player: Omit<BenchPlayer, 'sessionId'> } => {
  let s = newPlayer(m, playerId, now - DAY);
  s = step(m, s, 'getPlayerPresent', { managedPresentId: s.presents.map((p) => p.managedPresentId).join(',') }, 'recv', now - DAY);
  s = { ...s, gem: m.game.currencyMax.gem };
  for (let i = 0; i < 8; i++) s = step(m, s, 'drawPlayerGacha', { gachaId: GACHA_ID, drawType: 3 }, `draw${playerId}-${i}`, now - DAY + i);
  s = step(m, s, 'buyAllPlayerTownFacility', { facilities: [{ facilityId: 1, amount: 1 }] }, 'buy', now - DAY);
  const facility = s.facilities.at(-1);
  if (!facility) throw new Error('bench setup: no facility');
  s = step(m, s, 'openUpPlayerTownFacility', { managedTownFacilityId: facility.managedTownFacilityId }, 'open', now - DAY);
  // A day old: its storage is full, so every collection of one coin takes one.
  s = { ...s, gem: m.game.currencyMax.gem, gold: 50_000_000, items: setItem(s.items, CANDY, 9999) };
  const presentIds: number[] = [];
  for (let i = 0; i < presents; i++) {
    const sent = sendPresent(s, { kind: 'gold', objectId: 0, amount: 1 }, { title: 'Bench', message: '', source: 'operator', deadline: null }, now - DAY);
    s = sent.state;
    presentIds.push(sent.present.managedPresentId);
  }
  const characterIds = s.characters.slice(0, 8).map((c) => c.managedCharacterId);
  return { state: s, player: { playerId, facilityId: facility.managedTownFacilityId, characterIds, presentIds } };
};

const sessionFor = (s: PlayerState, now: number): { sessionId: string; entry: { key: string; session: Session } } => {
  const sessionId = randomBytes(18).toString('base64url');
  return { sessionId, entry: { key: sha256(`session:${sessionId}`), session: { playerId: s.playerId, epoch: s.account.sessionEpoch, createdAt: now, lastSeenAt: now } } };
};

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
    ...t, playerId, name: `P${playerId}`, myCode: codeOf(playerId), nextManagedId: t.nextManagedId + shift,
    account: { ...t.account, uuid: `bench-${playerId}`, tokenHash: sha256(`bench-token-${playerId}`) },
    presents: t.presents.map((p) => ({ ...p, managedPresentId: p.managedPresentId + shift })),
  };
};

/**
 * Writes `total` players to a new store in `dir`; every `activeEvery`-th is active.
 * Commits in batches (one journal record and one fsync each) and closes the store,
 * which checkpoints every player to its snapshot.
 */
export const generateStore = async (m: Master, dir: string, total: number, activeEvery: number, now: number, extra: ReadonlyArray<{ state: PlayerState }> = []): Promise<{ active: BenchPlayer[]; extra: BenchPlayer[] }> =>
  fillStore(await FileStorage.open({ dir, cacheSize: 100 }), m, total, activeEvery, now, extra);

/** Fills any storage (and closes it): the JSON files above, or a PostgreSQL schema. */
export const fillStore = async (store: Storage, m: Master, total: number, activeEvery: number, now: number, extra: ReadonlyArray<{ state: PlayerState }> = []): Promise<{ active: BenchPlayer[]; extra: BenchPlayer[] }> => {
  const active: BenchPlayer[] = [];
  const template = newPlayer(m, 1, now - DAY);
  const BATCH = 1000;
  let commit: { players: Array<{ state: PlayerState; expectedVersion: null }>; sessions: Array<{ key: string; session: Session }> } = { players: [], sessions: [] };
  const flush = async () => {
    if (commit.players.length === 0) return;
    const r = await store.commit(commit as Commit);
    if (!r.ok) throw new Error(`bench setup: commit refused: ${r.detail}`);
    commit = { players: [], sessions: [] };
  };
  for (let id = 1; id <= total; id++) {
    if (id % activeEvery === 0) {
      const a = activePlayer(m, id, now);
      const { sessionId, entry } = sessionFor(a.state, now);
      commit.players.push({ state: a.state, expectedVersion: null });
      commit.sessions.push(entry);
      active.push({ ...a.player, sessionId });
    } else {
      commit.players.push({ state: fillerFrom(template, id), expectedVersion: null });
    }
    if (commit.players.length >= BATCH) await flush();
  }
  const more: BenchPlayer[] = [];
  for (const e of extra) {
    const { sessionId, entry } = sessionFor(e.state, now);
    commit.players.push({ state: e.state, expectedVersion: null });
    commit.sessions.push(entry);
    const f = e.state.facilities.at(-1);
    more.push({ playerId: e.state.playerId, sessionId, facilityId: f?.managedTownFacilityId ?? 0, characterIds: e.state.characters.slice(0, 8).map((c) => c.managedCharacterId), presentIds: e.state.presents.map((p) => p.managedPresentId) });
  }
  await flush();
  await store.close();
  return { active, extra: more };
};
