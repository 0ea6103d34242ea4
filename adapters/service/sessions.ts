// Sessions as the service sees them: resolving the one a request carries, and what a
// commit writes of them (a log-in's new session, the caller's last-seen time).
import { gameError, type GameError } from '../../core/errors.js';
import type { AnyOperation, Issued } from '../../core/operation.js';
import { sha256 } from '../../core/secret.js';
import { E } from '../../core/shared/result.js';
import type { PlayerState } from '../../core/state.js';
import type { Session, Storage } from '../storage/storage.js';

/** A live session: its storage key (the hash of its id) and what storage holds. */
export interface ResolvedSession {
  readonly key: string;
  readonly session: Session;
}

/** A session write of a commit: put (by key) or remove (null). */
export type SessionWrite = { readonly key: string; readonly session: Session | null };

/** A session's last-seen time is written at most this often (it bounds idle expiry's precision). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * How often a session's last-seen time is written: at most once a minute, and at
 * least four times per idle period. A session expires once its last-seen time is
 * the idle time plus this old, so a session used at intervals shorter than the idle
 * time never expires, whatever the setting (a 30 s setting used to expire busy
 * sessions), and one left unused expires within idle + min(1 min, idle/4).
 */
export const touchIntervalMs = (sessionIdleMs: number): number =>
  Math.min(TOUCH_INTERVAL_MS, Math.floor(sessionIdleMs / 4));

/** How long a session lives unused. */
export const idleLimitMs = (sessionIdleMs: number): number => sessionIdleMs + touchIntervalMs(sessionIdleMs);

/** Session ids whose keys are kept (two generations of this many): a client sends its own on every request. */
const KEYS_KEPT = 4096;
const KEPT_ID_CHARS = 128;
let youngKeys = new Map<string, string>();
let oldKeys = new Map<string, string>();

/**
 * A session's storage key: the hash of its id. Kept for the ids seen lately, so that a
 * playing client's requests do not hash the same id again each time; bounded (two
 * generations: an id unused for a generation is forgotten, and hashed again when it returns).
 */
export const sessionKey = (sessionId: string): string => {
  const kept = youngKeys.get(sessionId);
  if (kept !== undefined) return kept;
  const key = oldKeys.get(sessionId) ?? sha256(`session:${sessionId}`);
  // Ids this server makes are 36 characters: a long one (anyone's header) is hashed, not kept.
  if (sessionId.length > KEPT_ID_CHARS) return key;
  if (youngKeys.size >= KEYS_KEPT) {
    oldKeys = youngKeys;
    youngKeys = new Map();
  }
  youngKeys.set(sessionId, key);
  return key;
};

/**
 * The session a request carries, or 203. Its player's epoch (a move voids older
 * sessions) is checked under the player's lock, where the player is loaded once.
 */
export const resolveSession = async (
  storage: Storage,
  sessionId: string | undefined,
  now: number,
  sessionIdleMs: number,
): Promise<E.Either<GameError, ResolvedSession>> => {
  if (!sessionId) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
  const key = sessionKey(sessionId);
  const expired = (s: Session | undefined) => !s || now - s.lastSeenAt >= idleLimitMs(sessionIdleMs);
  let session = await storage.getSession(key);
  // A store that keeps sessions in memory is asked again before a refusal: another process may have used it since.
  if (expired(session)) session = await storage.getSession(key, true);
  if (!session || expired(session)) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
  return E.right({ key, session });
};

/** Sessions a commit writes: a log-in's new one, or the caller's last-seen time (at most once per touch interval). */
export const sessionWrites = (
  op: AnyOperation,
  found: ResolvedSession | undefined,
  next: PlayerState,
  now: number,
  issued: Issued | undefined,
  sessionIdleMs: number,
): SessionWrite[] => {
  if (op.issues === 'session' && issued) {
    return [
      {
        key: sessionKey(issued.sessionId),
        session: { playerId: next.playerId, epoch: next.account.sessionEpoch, createdAt: now, lastSeenAt: now },
      },
    ];
  }
  if (found && now - found.session.lastSeenAt > touchIntervalMs(sessionIdleMs))
    return [{ key: found.key, session: { ...found.session, lastSeenAt: now } }];
  return [];
};
