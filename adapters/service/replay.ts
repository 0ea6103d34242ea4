// Replays the log: `execute` over every entry again (all players, in log order,
// since friend operations change two; or for one player, only the entries its
// states depend on: readPlayerLog), with the entry's request, seed, now and
// master data, and compares each resulting state's hash with the one recorded, so
// an operator can answer "why did this player get this?" and see where a rebuilt
// player first differs from what was stored. Entries written before issue 16 had
// kinds of their own (signup, login, moveSet, admin.present): readEntry reads
// them as the entries they are now. The replay runs today's rules: an entry whose
// rule changed since it was written makes another state, reported at that entry
// (with the first path that differs, where the state recorded there is known) and
// the replay goes on (docs/replay.md, "Old logs").
import { unbornPlayer } from '../../core/account.js';
import type { Master } from '../../core/master/index.js';
import { execute, findOf, type Issued } from '../../core/operation.js';
import { entryByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import { decodeState, type PlayerState } from '../../core/state.js';
import { canonicalJson, stateHash } from '../storage/canonical.js';
import { applyDelta, type JournalRecord } from '../storage/journal.js';
import type { LogEntry, StoredLogEntry } from '../storage/replay-log.js';
import type { LogFilter } from '../storage/storage.js';
import { stateDifference } from './replay-diff.js';

export interface Difference {
  readonly seq: number | undefined;
  /** 'op', or an old entry's own kind. */
  readonly kind: StoredLogEntry['kind'];
  /** The entry's operation. */
  readonly op?: string;
  readonly playerId: number;
  readonly reason: string;
  /**
   * Where the replayed state first differs from the recorded one ('' for the state
   * itself), with both values shortened: only when the recorded state is known
   * (replayLog's `recorded`); the log itself keeps only its hash.
   */
  readonly path?: string;
  readonly replayed?: string;
  readonly recorded?: string;
  /** Every field of the state that differs, sorted (path is in the first). */
  readonly fields?: ReadonlyArray<string>;
}

export interface ReplayOutcome {
  readonly entries: number;
  /** The rebuilt states, by player. */
  readonly states: ReadonlyMap<number, PlayerState>;
  /** Every entry whose results differ from the recorded ones (in log order). */
  readonly differences: ReadonlyArray<Difference>;
}

/**
 * An entry as it is written now. Old kinds become the table entries that replaced
 * their service code: a log-in's token was checked when it ran and not logged, so
 * it is read as presenting the token the player held then (`stateOf`).
 */
export const readEntry = (e: StoredLogEntry, stateOf: (playerId: number) => PlayerState | undefined): LogEntry => {
  const base = {
    at: e.at,
    masterHash: e.masterHash,
    playerIds: e.playerIds,
    results: e.results,
    playerId: e.playerId,
    others: [],
    ...(e.seq === undefined ? {} : { seq: e.seq }),
  };
  switch (e.kind) {
    case 'op':
      // getPlayerMove before: the request without the password, the hash beside it.
      return e.movePasswordHash === undefined
        ? e
        : { ...e, request: { ...(e.request as object), passwordHash: e.movePasswordHash } };
    case 'signup':
      return {
        ...base,
        kind: 'op',
        op: 'signupPlayer',
        request: { uuid: e.uuid, platform: e.platform, name: e.name, stepCode: e.stepCode },
        seed: e.seed,
        issued: { accessTokenHash: e.tokenHash },
      };
    case 'login': {
      const s = stateOf(e.playerId);
      return {
        ...base,
        kind: 'op',
        op: 'loginPlayer',
        request: { uuid: s?.account.uuid ?? '', accessTokenHash: s?.account.tokenHash ?? '' },
        seed: '',
      };
    }
    case 'moveSet':
      return {
        ...base,
        kind: 'op',
        op: 'setPlayerMove',
        seed: '',
        issued: { accessTokenHash: e.tokenHash },
        request: { moveCode: e.moveCode, uuid: e.uuid, platform: e.platform, movePasswordHash: e.movePasswordHash },
      };
    case 'admin.present':
      return {
        ...base,
        kind: 'op',
        op: 'adminSendPresent',
        seed: '',
        request: { playerId: e.playerId, grant: e.grant, ...e.meta },
      };
  }
};

/** What a replay passes for the secrets the edge made: their hashes as logged; the secrets themselves are gone. */
const issuedOf = (e: LogEntry): Issued => ({
  accessToken: '',
  accessTokenHash: e.issued?.accessTokenHash ?? '',
  sessionId: '',
});

/** Runs one entry on the rebuilt states; returns the states it produced, or why it could not run. */
const applyEntry = (e: LogEntry, m: Master, states: ReadonlyMap<number, PlayerState>): PlayerState[] | string => {
  const op = entryByName(e.op);
  if (!op) return `no operation ${e.op} in the table`;
  const s = findOf(op).by === 'new' ? unbornPlayer(e.playerId) : states.get(e.playerId);
  if (!s) return `player ${e.playerId} does not exist at this point of the log`;
  const others = e.others.map((id) => (id === null ? undefined : id === e.playerId ? s : states.get(id)));
  let r: ReturnType<typeof execute>;
  try {
    r = execute(op, s, e.request, rngFromSeed(e.seed), e.at, { master: m, others, issued: issuedOf(e) });
  } catch (err) {
    // A rule changed so far that today's code cannot run the entry on this state: reported, not fatal.
    return `${e.op} threw: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (r._tag === 'Left') return `${e.op} failed with ${r.left.code}`;
  const out: PlayerState[] = r.right.state === s ? [] : [r.right.state];
  r.right.others.forEach((o, i) => {
    const before = others[i];
    if (o && before && o !== before && o.playerId !== e.playerId) out.push(o);
  });
  return out;
};

export interface ReplayOptions {
  /**
   * The state an entry recorded for a player, where it is known (a JSON-file store's
   * journal keeps each commit's states until a checkpoint): a difference at that entry
   * then names the first path that differs.
   */
  readonly recorded?: (seq: number | undefined, playerId: number) => PlayerState | undefined;
}

/**
 * The states a JSON-file store's journal records (its records up to a checkpoint),
 * by entry and player, for ReplayOptions.recorded: each record's whole states and
 * deltas, after the entries it holds. A delta whose base the journal lacks (written
 * after a checkpoint) leaves that player unknown until a whole state comes.
 */
export const recordedInJournal = (records: ReadonlyArray<JournalRecord>): NonNullable<ReplayOptions['recorded']> => {
  const states = new Map<number, PlayerState>();
  const bySeq = new Map<number, Map<number, PlayerState>>();
  for (const r of records) {
    for (const p of r.players) {
      const d = decodeState(p);
      if (d._tag === 'Right') states.set(d.right.playerId, d.right);
    }
    for (const d of r.deltas ?? []) {
      const base = states.get(d.playerId);
      if (base !== undefined && base.version === d.base)
        states.set(d.playerId, applyDelta(base, d, `journal record ${r.seq}`));
      else states.delete(d.playerId);
    }
    for (const e of r.log ?? [])
      if (e.seq !== undefined)
        bySeq.set(
          e.seq,
          new Map(
            e.playerIds.flatMap((id) => {
              const s = states.get(id);
              return s ? [[id, s] as const] : [];
            }),
          ),
        );
  }
  return (seq, playerId) => (seq === undefined ? undefined : bySeq.get(seq)?.get(playerId));
};

/**
 * Replays a whole log with today's rules. `masterFor` gives the master data of a
 * hash (a snapshot; one that does not load is reported at the entry). Entries keep
 * running after a difference, on the rebuilt states, so every later difference is
 * listed too. `from`: the states to start from (a log's tail replayed on the states
 * as stored before it); none by default.
 */
export const replayLog = (
  log: ReadonlyArray<StoredLogEntry>,
  masterFor: (hash: string) => Master,
  from: ReadonlyMap<number, PlayerState> = new Map(),
  options: ReplayOptions = {},
): ReplayOutcome => {
  const states = new Map<number, PlayerState>(from);
  const differences: Difference[] = [];
  for (const stored of log) {
    const e = readEntry(stored, (id) => states.get(id));
    const at = (reason: string, playerId: number, got?: PlayerState): void => {
      const recorded = got === undefined ? undefined : options.recorded?.(e.seq, playerId);
      const how = got === undefined || recorded === undefined ? null : stateDifference(got, recorded);
      differences.push({ seq: e.seq, kind: stored.kind, op: e.op, playerId, reason, ...(how ?? {}) });
    };
    let m: Master;
    try {
      m = masterFor(e.masterHash);
    } catch (err) {
      for (const id of e.playerIds)
        at(
          `the master data ${e.masterHash} does not load: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
          id,
        );
      continue;
    }
    const produced = applyEntry(e, m, states);
    if (typeof produced === 'string') {
      for (const id of e.playerIds) at(produced, id);
      continue;
    }
    // The states replaced: hashing reuses what was hashed of their lists.
    const replaced = new Map(produced.map((p) => [p.playerId, states.get(p.playerId)]));
    for (const p of produced) states.set(p.playerId, p);
    const made = new Map(produced.map((p) => [p.playerId, p]));
    for (const r of e.results) {
      const got = made.get(r.playerId);
      if (!got) at('the replay did not change this player', r.playerId);
      else if (got.version !== r.version) at(`version ${got.version}, recorded ${r.version}`, r.playerId, got);
      else if (stateHash(got, replaced.get(r.playerId)) !== r.stateHash)
        at('the resulting state differs (stateHash)', r.playerId, got);
    }
    for (const p of produced)
      if (!e.results.some((r) => r.playerId === p.playerId))
        at('the replay changed a player the entry did not', p.playerId);
  }
  return { entries: log.length, states, differences };
};

/** The players whose states an entry read: the one it ran on and the others it named (an old kind, its own). */
const readersOf = (e: StoredLogEntry): number[] =>
  e.kind === 'op' ? [e.playerId, ...e.others.flatMap((id) => (id === null ? [] : [id]))] : [e.playerId];

const seqOf = (e: StoredLogEntry): number => {
  if (e.seq === undefined) throw new Error(`a log entry without its seq (${e.kind}, player ${e.playerId})`);
  return e.seq;
};

/**
 * The entries a replay of one player needs, read by player only (`read`: a storage's
 * readLog): the player's own, and for each entry the entries before it of every
 * player it read (the one it ran on, the others it named), and theirs in turn, to a
 * fixed point. Each of them then sees in a replay the states it saw in the whole
 * log's, so the player is rebuilt exactly as the whole log rebuilds it. `version`:
 * the player's entries stop at the one that made this version (a state read before
 * the log, which a running server may have added to since).
 */
export const readPlayerLog = async (
  read: (filter: LogFilter) => Promise<StoredLogEntry[]>,
  playerId: number,
  options: { readonly version?: number } = {},
): Promise<StoredLogEntry[]> => {
  const byPlayer = new Map<number, StoredLogEntry[]>();
  /** Each player's entries needed: those up to this seq. */
  const upTo = new Map<number, number>();
  /** Each player's entries taken so far: those up to this seq. */
  const taken = new Map<number, number>();
  const chosen = new Map<number, StoredLogEntry>();
  const own = await read({ players: [playerId] });
  byPlayer.set(playerId, own);
  const last =
    options.version === undefined
      ? undefined
      : own.find((e) => e.results.some((r) => r.playerId === playerId && r.version === options.version));
  upTo.set(playerId, last === undefined ? Number.POSITIVE_INFINITY : seqOf(last));
  for (;;) {
    const due = [...upTo].filter(([id, seq]) => seq > (taken.get(id) ?? Number.NEGATIVE_INFINITY)).map(([id]) => id);
    if (due.length === 0) break;
    // One read for every player first needed in this round.
    const unread = due.filter((id) => !byPlayer.has(id));
    if (unread.length > 0) {
      const got = await read({ players: unread });
      for (const id of unread)
        byPlayer.set(
          id,
          got.filter((e) => e.playerIds.includes(id)),
        );
    }
    for (const id of due) {
      const from = taken.get(id) ?? Number.NEGATIVE_INFINITY;
      const to = upTo.get(id) ?? from;
      for (const e of byPlayer.get(id) ?? []) {
        const seq = seqOf(e);
        if (seq <= from || seq > to) continue;
        chosen.set(seq, e);
        for (const r of readersOf(e))
          if (r !== id && (upTo.get(r) ?? Number.NEGATIVE_INFINITY) < seq - 1) upTo.set(r, seq - 1);
      }
      taken.set(id, to);
    }
  }
  return [...chosen.values()].sort((a, b) => seqOf(a) - seqOf(b));
};

/**
 * The players `log` cannot rebuild from nothing because their history begins before
 * it (a log whose older entries were archived or deleted by the replay log's
 * retention): the first entry here that changes or reads each of them is not the one
 * that created it. Sorted; empty for a log that holds every player's beginning.
 */
export const bornBefore = (log: ReadonlyArray<StoredLogEntry>): number[] => {
  const seen = new Set<number>();
  const before = new Set<number>();
  for (const stored of log) {
    const e = readEntry(stored, () => undefined);
    const op = entryByName(e.op);
    const creates = op !== undefined && findOf(op).by === 'new';
    for (const id of [...e.playerIds, ...readersOf(stored)]) {
      if (seen.has(id)) continue;
      seen.add(id);
      if (!(creates && id === e.playerId)) before.add(id);
    }
  }
  return [...before].sort((a, b) => a - b);
};

export interface PlayerReport {
  readonly playerId: number;
  readonly entries: number;
  /** Entries that changed this player. */
  readonly playerEntries: number;
  /** The rebuilt state's canonical JSON is byte-identical to the stored one's and no entry of the player differed. */
  readonly identical: boolean;
  readonly firstDifference: Difference | null;
  readonly storedMatches: boolean;
  /** Where the rebuilt state first differs from the stored one (null when they match or either is missing). */
  readonly storedDifference: {
    readonly path: string;
    readonly replayed: string;
    readonly recorded: string;
    readonly fields: ReadonlyArray<string>;
  } | null;
  /** The player as the log rebuilt it (undefined: no entry made it). */
  readonly rebuilt: PlayerState | undefined;
}

/** Rebuilds one player from the log (the whole log, or readPlayerLog's) and compares it with its stored state. */
export const replayPlayer = (
  log: ReadonlyArray<StoredLogEntry>,
  masterFor: (hash: string) => Master,
  playerId: number,
  stored: PlayerState | undefined,
  options: ReplayOptions = {},
): PlayerReport => {
  const out = replayLog(log, masterFor, new Map(), options);
  const rebuilt = out.states.get(playerId);
  const storedMatches =
    rebuilt !== undefined && stored !== undefined && canonicalJson(rebuilt) === canonicalJson(stored);
  const firstDifference = out.differences.find((d) => d.playerId === playerId) ?? null;
  return {
    playerId,
    entries: out.entries,
    playerEntries: log.filter((e) => e.playerIds.includes(playerId)).length,
    identical: storedMatches && firstDifference === null,
    firstDifference,
    storedMatches,
    storedDifference:
      storedMatches || rebuilt === undefined || stored === undefined ? null : stateDifference(rebuilt, stored),
    rebuilt,
  };
};
