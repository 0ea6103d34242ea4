// What a deletion commits besides the states (player/delete makes the player a
// tombstone: core/operations/privacy.ts): the player's sessions removed, and the
// Erasure the store purges with the commit and after it (docs/privacy.md). The
// service sees only that a run made a live player a tombstone; it names no entry.
import { isDeleted, type PlayerState } from '../../core/state.js';
import { relatedPlayerIds } from '../../core/state/social.js';
import type { Erasure, Storage } from '../storage/storage.js';
import { moveScope } from './locate.js';
import type { SessionWrite } from './sessions.js';

/** The Idempotency-Key scopes that were the player's own (locate.ts names them): by session, log-in, move, sign-up. */
export const ownScopes = (s: PlayerState): string[] => {
  const uuids = [s.account.uuid, ...s.account.movedFrom];
  return [
    `p${s.playerId}`,
    `login${s.playerId}`,
    moveScope(undefined, s.playerId),
    ...uuids.flatMap((u) => [`signup/${u}`, moveScope(u, s.playerId)]),
  ];
};

/**
 * The erasure of a run that deleted `before` (undefined for any other run): its own
 * scopes dropped; the scopes of the players who may have been shown it in a kept answer
 * scrubbed (those it is related to, and those it shared a log entry with within the
 * time answers are kept: a relation that ended since); its sessions removed.
 */
export const erasureOf = async (
  store: Storage,
  before: PlayerState,
  after: PlayerState,
  now: number,
  answersKeptMs: number,
): Promise<{ readonly erase: Erasure; readonly sessions: SessionWrite[] } | undefined> => {
  if (isDeleted(before) || !isDeleted(after)) return undefined;
  const id = before.playerId;
  const shown = new Set(relatedPlayerIds(before));
  for (const e of await store.readLog({ players: [id] }))
    if (e.at >= now - answersKeptMs) for (const p of e.playerIds) shown.add(p);
  shown.delete(id);
  const sessions = (await store.sessionsOf(id)).map(({ key }): SessionWrite => ({ key, session: null }));
  return {
    erase: { playerId: id, drop: ownScopes(before), scrub: [...shown].sort((a, b) => a - b).map((p) => `p${p}`) },
    sessions,
  };
};

/** A run's session writes with a deletion's (every session of the player removed), and its erasure, if it deleted one. */
export const withErasure = async (
  store: Storage,
  before: PlayerState,
  after: PlayerState,
  own: SessionWrite[],
  now: number,
  answersKeptMs: number,
): Promise<{ readonly sessions: SessionWrite[]; readonly erase?: Erasure }> => {
  const erased = await erasureOf(store, before, after, now, answersKeptMs);
  if (!erased) return { sessions: own };
  const removed = new Set(erased.sessions.map((x) => x.key));
  return { sessions: [...own.filter((x) => !removed.has(x.key)), ...erased.sessions], erase: erased.erase };
};
