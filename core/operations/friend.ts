// Friends: search by friend code, propose, accept, refuse, cancel, terminate, and
// the list (with guests on the quest screen). Every change touches two players;
// the service locks both in a fixed order and commits them together or not at all.
import * as t from 'io-ts';
import { Flag, PosInt, Text, obj, objWithOptional } from '../codecs.js';
import { implementOp, type Env, type OtherRef } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import { type FriendState, type FriendRelation } from '../state/social.js';
import type { Rng } from '../rng.js';
import { fail, ok, type Result } from '../shared/result.js';
import { timeText, type ViewCtx } from '../view.js';
import { type PublicPlayerView, WireTime, nullable } from '../views/codecs.js';
import * as api from '../api/friend.js';
import { type FriendEntryView } from '../api/friend.js';

/** Candidates read for guests; how many are shown is master data (social.friend.guestCount). */
const GUEST_POOL = 30;

const relationOf = (s: PlayerState, playerId: number): FriendRelation | undefined =>
  s.friends.find((f) => f.playerId === playerId);
const countOf = (s: PlayerState, state: FriendState): number => s.friends.filter((f) => f.state === state).length;

/** Sets (or with null removes) the relation with another player. */
const withRelation = (s: PlayerState, playerId: number, r: FriendRelation | null): PlayerState => {
  const rest = s.friends.filter((f) => f.playerId !== playerId);
  return { ...s, friends: r === null ? rest : [...rest, r] };
};

/** What anyone may see of a player: the friend list, search and guests show this. */
export const publicSummary = (o: PlayerState, ctx: ViewCtx): PublicPlayerView => ({
  playerId: o.playerId,
  name: o.name,
  myCode: o.myCode,
  level: o.level,
  lastLoginAt: timeText(ctx, o.lastLoginAt),
  achievementId: o.displayedAchievementId,
  supportParties: o.supportParties.map((p) => ({
    name: p.name,
    characters: p.managedCharacterIds.flatMap((id) => {
      const c = o.characters.find((x) => x.managedCharacterId === id);
      return c
        ? [
            {
              managedCharacterId: c.managedCharacterId,
              characterId: c.characterId,
              level: c.level,
              limitBreak: c.limitBreak,
              evolved: c.evolved,
            },
          ]
        : [];
    }),
  })),
});

/** The other player named by a request: not oneself (102), and existing (202). */
const targetOf = (
  s: PlayerState,
  playerId: number,
  env: Env,
): Result<PlayerState, 'INVALID_PARAMETERS' | 'PLAYER_NOT_FOUND'> => {
  if (playerId === s.playerId) return fail('INVALID_PARAMETERS', { field: 'playerId', reason: 'names yourself' });
  const o = env.others[0];
  return o ? ok(o) : fail('PLAYER_NOT_FOUND', {});
};

const full = (m: Master, s: PlayerState): boolean => countOf(s, 'friend') >= m.game.limits.friends;

/** Both sides become friends (a request either way is replaced). */
const befriend = (
  m: Master,
  s: PlayerState,
  o: PlayerState,
  now: number,
): Result<{ s: PlayerState; o: PlayerState }, 'FRIEND_LIMIT'> => {
  if (full(m, s) || full(m, o)) return fail('FRIEND_LIMIT', { max: m.game.limits.friends });
  return ok({
    s: withRelation(s, o.playerId, { playerId: o.playerId, state: 'friend', since: now, name: o.name }),
    o: withRelation(o, s.playerId, { playerId: s.playerId, state: 'friend', since: now, name: s.name }),
  });
};
const byPlayerId = (req: { playerId: number }): OtherRef[] => [{ by: 'playerId', playerId: req.playerId }];

// ---- search ----
const search = implementOp(api.search, {
  touches: (req) => [{ by: 'myCode', myCode: req.myCode.trim().toUpperCase() }],
  reduce: (s, req, _rng, now, env) => {
    const o = env.others[0];
    if (!o) return fail('PLAYER_NOT_FOUND', {});
    if (o.playerId === s.playerId)
      return fail('INVALID_PARAMETERS', { field: 'myCode', reason: 'is your own friend code' });
    return ok({
      state: s,
      response: {
        player: publicSummary(o, { master: env.master, now }),
        state: relationOf(s, o.playerId)?.state ?? null,
      },
    });
  },
});

// ---- propose ----
const propose = implementOp(api.propose, {
  touches: byPlayerId,
  reduce: (s, req, _rng, now, env) => {
    const m = env.master;
    const tr = targetOf(s, req.playerId, env);
    if (tr._tag === 'Left') return tr;
    const o = tr.right;
    const r = relationOf(s, o.playerId);
    if (r?.state === 'friend') return fail('ALREADY_FRIEND', { playerId: o.playerId });
    if (r?.state === 'proposed')
      return fail('STATE_CONFLICT', { reason: `a request to player ${o.playerId} is already pending` });
    if (r?.state === 'received') {
      // They asked first: proposing back is accepting.
      const both = befriend(m, s, o, now);
      if (both._tag === 'Left') return both;
      return ok({ state: both.right.s, others: [both.right.o], response: { playerId: o.playerId, state: 'friend' } });
    }
    const limit = m.social.friend.requestLimit;
    if (full(m, s) || full(m, o)) return fail('FRIEND_LIMIT', { max: m.game.limits.friends });
    if (countOf(s, 'proposed') >= limit || countOf(o, 'received') >= limit) return fail('FRIEND_LIMIT', { max: limit });
    return ok({
      state: withRelation(s, o.playerId, { playerId: o.playerId, state: 'proposed', since: now, name: o.name }),
      others: [withRelation(o, s.playerId, { playerId: s.playerId, state: 'received', since: now, name: s.name })],
      response: { playerId: o.playerId, state: 'proposed' },
    });
  },
});

/** Checks that the caller's relation with the target is `want`; a friend where a request is wanted is 502. */
const needRelation = (
  s: PlayerState,
  o: PlayerState,
  want: 'proposed' | 'received',
): Result<true, 'ALREADY_FRIEND' | 'NOT_FOUND'> => {
  const r = relationOf(s, o.playerId);
  if (r?.state === want) return ok(true);
  if (r?.state === 'friend') return fail('ALREADY_FRIEND', { playerId: o.playerId });
  return fail('NOT_FOUND', {
    entity: want === 'received' ? 'friend request from player' : 'friend request to player',
    id: o.playerId,
  });
};

/** Drops the relation on both sides. */
const dropBoth = (s: PlayerState, o: PlayerState) => ({
  state: withRelation(s, o.playerId, null),
  others: [withRelation(o, s.playerId, null)],
});

// ---- accept ----
const accept = implementOp(api.accept, {
  touches: byPlayerId,
  reduce: (s, req, _rng, now, env) => {
    const tr = targetOf(s, req.playerId, env);
    if (tr._tag === 'Left') return tr;
    const o = tr.right;
    const need = needRelation(s, o, 'received');
    if (need._tag === 'Left') return need;
    const both = befriend(env.master, s, o, now);
    if (both._tag === 'Left') return both;
    return ok({ state: both.right.s, others: [both.right.o], response: { playerId: o.playerId, state: 'friend' } });
  },
});

// ---- refuse ----
const refuse = implementOp(api.refuse, {
  touches: byPlayerId,
  reduce: (s, req, _rng, _now, env) => {
    const tr = targetOf(s, req.playerId, env);
    if (tr._tag === 'Left') return tr;
    const need = needRelation(s, tr.right, 'received');
    if (need._tag === 'Left') return need;
    return ok({ ...dropBoth(s, tr.right), response: { playerId: tr.right.playerId, state: null } });
  },
});

// ---- cancel ----
const cancel = implementOp(api.cancel, {
  touches: byPlayerId,
  reduce: (s, req, _rng, _now, env) => {
    const tr = targetOf(s, req.playerId, env);
    if (tr._tag === 'Left') return tr;
    const need = needRelation(s, tr.right, 'proposed');
    if (need._tag === 'Left') return need;
    return ok({ ...dropBoth(s, tr.right), response: { playerId: tr.right.playerId, state: null } });
  },
});

// ---- terminate ----
const terminate = implementOp(api.terminate, {
  touches: byPlayerId,
  reduce: (s, req, _rng, _now, env) => {
    const tr = targetOf(s, req.playerId, env);
    if (tr._tag === 'Left') return tr;
    if (relationOf(s, tr.right.playerId)?.state !== 'friend')
      return fail('NOT_YET_FRIEND', { playerId: tr.right.playerId });
    return ok({ ...dropBoth(s, tr.right), response: { playerId: tr.right.playerId, state: null } });
  },
});

/** `count` distinct entries chosen by the generator (a partial Fisher-Yates shuffle). */
const choose = <T>(rng: Rng, xs: ReadonlyArray<T>, count: number): T[] => {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) {
    const i = rng.int(pool.length);
    out.push(pool[i] as T);
    pool.splice(i, 1);
  }
  return out;
};

// ---- get_all ----
const getAll = implementOp(api.getAll, {
  touches: (req) => [
    { by: 'related' },
    ...(req.fromQuest === true ? [{ by: 'recentlyActive', count: GUEST_POOL } as const] : []),
  ],
  reduce: (s, req, rng, now, env) => {
    const m = env.master;
    const ctx = { master: m, now };
    const known = new Map<number, PlayerState>();
    // Stryker disable next-line ConditionalExpression: equivalent (the caller's own entry would never be read: it has no relation with itself and is never a guest candidate)
    for (const o of env.others) if (o && o.playerId !== s.playerId) known.set(o.playerId, o);
    const entry = (f: FriendRelation): FriendEntryView => {
      const o = known.get(f.playerId);
      // A player the service could not read (should not happen): what the relation remembers.
      const summary = o
        ? publicSummary(o, ctx)
        : {
            playerId: f.playerId,
            name: f.name,
            myCode: null,
            level: null,
            lastLoginAt: null,
            achievementId: null,
            supportParties: [],
          };
      return { ...summary, state: f.state, since: timeText(ctx, f.since) };
    };
    const list = (state: FriendState) => s.friends.filter((f) => f.state === state).map(entry);
    const friendIds = new Set(s.friends.filter((f) => f.state === 'friend').map((f) => f.playerId));
    const candidates =
      req.fromQuest === true
        ? [
            ...new Set(
              env.others.flatMap((o) =>
                o && o.playerId !== s.playerId && !friendIds.has(o.playerId) ? [o.playerId] : [],
              ),
            ),
          ]
        : [];
    const guests = choose(rng, candidates, m.social.friend.guestCount).map((id) =>
      publicSummary(known.get(id) as PlayerState, ctx),
    );
    return ok({
      state: s,
      response: {
        friends: list('friend'),
        proposed: list('proposed'),
        received: list('received'),
        guests,
        friendCount: friendIds.size,
        friendLimit: m.game.limits.friends,
      },
    });
  },
});

export const friendOps = [accept, cancel, getAll, propose, refuse, search, terminate] as const;
