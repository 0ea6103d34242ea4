// The game data's versions as the operator API shows them: publishing a set of files
// (what changes, in words), scheduling a version for an instant, cancelling, and the
// listing of the version in force, the scheduled ones and the history.
import * as t from 'io-ts';
import { DisplayText, IntRange, PosInt } from '../../core/codecs.js';

const num = t.number;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

/** A version's name: the sha256 of its files (as the replay log names it). */
export const VersionName = new t.RefinementType<t.StringC>(
  'MasterVersion',
  (u): u is string => typeof u === 'string' && /^[0-9a-f]{64}$/.test(u),
  (u, c) =>
    typeof u === 'string' && /^[0-9a-f]{64}$/.test(u)
      ? t.success(u)
      : t.failure(u, c, 'must be a version: 64 hex digits'),
  t.identity,
  t.string,
  (s) => /^[0-9a-f]{64}$/.test(s),
);

export const PublishMaster = t.exact(
  t.type({
    /** Master files by name as in fixtures/, each its JSON text ("gachas.json": "[{…}]"); files not given are the version in force's. */
    files: t.record(t.string, t.string),
    note: DisplayText(0, 200),
  }),
  'AdminPublishMasterRequest',
);

const FileDiffView = t.type({ file: t.string, changes: t.array(t.string) }, 'AdminMasterFileDiff');

export const PublishMasterResponse = t.type(
  {
    version: t.string,
    /** True when this set was published before (kept once; its first record stands). */
    alreadyKept: t.boolean,
    /** What changes against the version in force now, per file: entries added, removed, and each changed field old → new. */
    diff: t.array(FileDiffView),
  },
  'AdminPublishMasterResponse',
);

export const ScheduleMaster = t.exact(
  t.intersection([
    t.type({ version: VersionName }),
    t.partial({ at: t.union([t.string, t.null]), note: DisplayText(0, 200) }),
  ]),
  'AdminScheduleMasterRequest',
);

export const ScheduleEntryView = t.type(
  {
    id: num,
    version: t.string,
    /** When it takes (took) effect, in the game's time zone. */
    at: t.string,
    by: t.string,
    note: t.string,
    createdAt: t.string,
    cancelledAt: nullable(t.string),
  },
  'AdminMasterScheduleEntry',
);

export const CancelScheduleResponse = t.type({ cancelled: ScheduleEntryView }, 'AdminCancelScheduleResponse');

export const ScheduleId = PosInt;

export const MasterVersionView = t.type(
  { version: t.string, publishedAt: t.string, by: t.string, note: t.string },
  'AdminMasterVersion',
);

/** GET /admin/master's listing of the versions: in force now, scheduled (not yet in effect), and the history. */
export const MasterVersionsView = t.type({
  /** The version serving requests now. */
  inForce: t.string,
  /** Entries still to take effect, soonest first (each can be cancelled). */
  scheduled: t.array(ScheduleEntryView),
  /** Every schedule entry ever made, newest first, cancelled ones too. */
  history: t.array(ScheduleEntryView),
  /** Every version kept, newest first. */
  versions: t.array(MasterVersionView),
});

/** The preview's bounds: a server runs it beside the game (worker threads), so it is kept to minutes. */
export const PREVIEW_LIMITS = { players: 2000, days: 30, seeds: 20 } as const;

export const PreviewMaster = t.exact(
  t.intersection([
    t.type({ version: VersionName }),
    t.partial({
      /** Stored players sampled, evenly spread over the ids (default 200). */
      players: IntRange(1, PREVIEW_LIMITS.players),
      /** Days of play simulated from now (default 7). */
      days: IntRange(1, PREVIEW_LIMITS.days),
      /** Paired runs, each on its own random draws (default 10; at least 2 for intervals). */
      seeds: IntRange(2, PREVIEW_LIMITS.seeds),
      /** The base seed (default "preview"): the same seed, players and versions give the same report. */
      seed: DisplayText(1, 64),
    }),
  ]),
  'AdminPreviewMasterRequest',
);

const PreviewRow = t.type(
  {
    metric: t.string,
    /** The behaviour profile it is of (toolkit/profiles.json), or null for the whole sample. */
    profile: nullable(t.string),
    /** Means over the seeds: A the version in force, B the candidate. */
    a: num,
    b: num,
    /** B − A and its 95% interval (paired over the seeds). */
    diff: num,
    low: nullable(num),
    high: nullable(num),
    /** The paired t-test's p-value, and Benjamini–Hochberg's adjusted one over every row. */
    p: nullable(num),
    q: nullable(num),
    /** The difference survives the correction (q ≤ the false discovery rate). */
    marked: t.boolean,
  },
  'AdminPreviewRow',
);

export const PreviewMasterResponse = t.type(
  {
    /** A: the version in force now; B: the candidate. */
    inForce: t.string,
    candidate: t.string,
    players: num,
    days: num,
    seeds: num,
    seed: t.string,
    /** When the simulated days start (now, in the game's time zone). */
    from: t.string,
    testing: t.type({
      test: t.string,
      correction: t.string,
      falseDiscoveryRate: num,
      tested: num,
      marked: num,
    }),
    rows: t.array(PreviewRow),
    /** Wall-clock milliseconds the preview took. */
    tookMs: num,
  },
  'AdminPreviewMasterResponse',
);
