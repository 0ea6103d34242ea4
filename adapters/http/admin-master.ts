// The operator's game-data routes: publish a version (validated as start-up does,
// answered with what it changes), schedule one for an instant, cancel a scheduled
// one, preview one on a sample of the stored players (the simulator's profiles, in
// worker threads), and the listing GET /admin/master shows. The versions and the schedule are
// the service's book (adapters/master/book.ts), which every process reads.
import type * as t from 'io-ts';
import { requestError } from '../../core/codecs.js';
import { gameError, type GameError } from '../../core/errors.js';
import { masterFiles } from '../../core/master/index.js';
import { E } from '../../core/shared/result.js';
import { formatTime } from '../../core/time.js';
import type { MasterBook } from '../master/book.js';
import { masterDiff } from '../master/diff.js';
import { hashMasterFiles, masterFromFiles, MasterDataError, type MasterFiles } from '../master/load.js';
import type { MasterScheduleEntry } from '../master/registry.js';
import type { GameService } from '../service/service.js';
import { DEFAULT_CONFIG, loadConfig } from '../../toolkit/sim/config.js';
import { previewLiveParallel } from '../../toolkit/sim/live.js';
import { PreviewMaster, PublishMaster, ScheduleMaster, type MasterVersionsView } from './admin-master-codecs.js';
import { parseOperatorTime, TIME_FORMS } from './admin-operations.js';

type Answer = E.Either<GameError, Record<string, unknown>>;
interface MasterCtx {
  readonly state: object;
  readonly params: Record<string, string | undefined>;
  readonly request: unknown;
}

/** What the routes need of the admin router. */
export interface MasterRouteDeps {
  readonly route: (name: string, handler: (ctx: MasterCtx) => Promise<Answer>) => void;
  readonly service: GameService;
  readonly nowOf: (ctx: MasterCtx) => number;
  readonly offsetOf: (ctx: MasterCtx) => number;
  /** Worker threads a preview's runs are split over. */
  readonly previewThreads: number;
  /** Who acts (the operator's name; "admin" for ADMIN_TOKEN): the history names its author. */
  readonly actorOf: (ctx: MasterCtx) => string;
}

/** The request's JSON body (the body parser's), or an empty object. */
const bodyOf = (ctx: MasterCtx): unknown => (ctx.request as { body?: unknown }).body ?? {};

const invalid = (field: string, reason: string): Answer => E.left(gameError('INVALID_PARAMETERS', { field, reason }));

export const scheduleView = (e: MasterScheduleEntry, offset: number) => ({
  id: e.id,
  version: e.version,
  at: formatTime(e.at, offset),
  by: e.by,
  note: e.note,
  createdAt: formatTime(e.createdAt, offset),
  cancelledAt: e.cancelledAt === null ? null : formatTime(e.cancelledAt, offset),
});

/** The versions as GET /admin/master lists them. */
export const versionsListing = (
  service: GameService,
  now: number,
  offset: number,
): t.TypeOf<typeof MasterVersionsView> => {
  const { versions, schedule } = service.book.known;
  return {
    inForce: service.masterAt(now).version,
    scheduled: schedule
      .filter((e) => e.cancelledAt === null && e.at > now)
      .sort((a, b) => a.at - b.at)
      .map((e) => scheduleView(e, offset)),
    history: [...schedule].sort((a, b) => b.id - a.id).map((e) => scheduleView(e, offset)),
    versions: [...versions]
      .sort((a, b) => b.publishedAt - a.publishedAt)
      .map((v) => ({ ...v, publishedAt: formatTime(v.publishedAt, offset) })),
  };
};

/** The files given by name ("gachas.json"), over the version in force's: the whole set, in the order the hash reads them. */
const setOf = (texts: Record<string, string>, current: MasterFiles): E.Either<GameError, MasterFiles> => {
  const names = Object.keys(masterFiles);
  const given: Record<string, unknown> = {};
  for (const [k, text] of Object.entries(texts)) {
    try {
      given[k] = JSON.parse(text);
    } catch (e) {
      return E.left(
        gameError('INVALID_PARAMETERS', { field: `files.${k}`, reason: `not JSON: ${(e as Error).message}` }),
      );
    }
  }
  for (const k of Object.keys(given)) {
    if (!names.includes(k.replace(/\.json$/, '')) || !k.endsWith('.json')) {
      return E.left(
        gameError('INVALID_PARAMETERS', {
          field: `files.${k}`,
          reason: 'not a master file (as in fixtures/: gachas.json, items.json …)',
        }),
      );
    }
  }
  const raw: MasterFiles = {};
  for (const name of names) {
    const v = `${name}.json` in given ? given[`${name}.json`] : current[name];
    if (v !== undefined) raw[name] = v;
  }
  return E.right(raw);
};

const publish = async (d: MasterRouteDeps, ctx: MasterCtx): Promise<Answer> => {
  const req = PublishMaster.decode(bodyOf(ctx));
  if (req._tag === 'Left') return E.left(requestError(req.left));
  const now = d.nowOf(ctx);
  const book = d.service.book;
  const current = (await book.filesOf(d.service.masterAt(now).version)) ?? {};
  const raw = setOf(req.right.files, current);
  if (E.isLeft(raw)) return raw;
  let built;
  try {
    built = masterFromFiles(raw.right);
  } catch (e) {
    if (!(e instanceof MasterDataError)) throw e;
    const [first] = e.problems;
    const more = e.problems.length > 1 ? ` (and ${e.problems.length - 1} more)` : '';
    return invalid(
      `${first?.file ?? '(files)'} ${first?.field ?? ''}`.trim(),
      `${first?.message ?? 'not valid'}${more}`,
    );
  }
  const version = hashMasterFiles(raw.right);
  const alreadyKept = book.known.versions.some((v) => v.version === version);
  await book.publish(raw.right, built, version, d.actorOf(ctx), req.right.note, now);
  return E.right({ version, alreadyKept, diff: masterDiff(current, raw.right) });
};

const schedule = async (d: MasterRouteDeps, ctx: MasterCtx): Promise<Answer> => {
  const req = ScheduleMaster.decode(bodyOf(ctx));
  if (req._tag === 'Left') return E.left(requestError(req.left));
  const now = d.nowOf(ctx);
  const book = d.service.book;
  const { version, at, note } = req.right;
  if (!(await book.version(version))) return E.left(gameError('NOT_FOUND', { entity: 'master version', id: version }));
  let when = now + book.leadMs;
  if (at !== undefined && at !== null) {
    const ms = parseOperatorTime(at, d.offsetOf(ctx));
    if (ms === undefined) return invalid('at', `must be ${TIME_FORMS}`);
    if (ms < now) return invalid('at', 'must be now or later (to undo a change, schedule the earlier version)');
    when = Math.max(ms, now + book.leadMs);
  }
  const entry = await book.schedule(version, when, d.actorOf(ctx), note ?? '', now);
  return E.right(scheduleView(entry, d.offsetOf(ctx)));
};

/** Runs the simulator's profiles over a sample of the stored players under the version in force and a candidate. */
const preview = async (d: MasterRouteDeps, ctx: MasterCtx, busy: { running: boolean }): Promise<Answer> => {
  const req = PreviewMaster.decode(bodyOf(ctx));
  if (req._tag === 'Left') return E.left(requestError(req.left));
  const { version, players = 200, days = 7, seeds = 10, seed = 'preview' } = req.right;
  const now = d.nowOf(ctx);
  const candidate = await d.service.book.version(version);
  if (!candidate) return E.left(gameError('NOT_FOUND', { entity: 'master version', id: version }));
  if (busy.running) return E.left(gameError('STATE_CONFLICT', { reason: 'a preview is already running; wait for it' }));
  busy.running = true;
  try {
    const t0 = Date.now();
    const inForce = d.service.masterAt(now);
    const states = await d.service.operator.samplePlayers(players);
    const c = await previewLiveParallel(
      { name: inForce.version, master: inForce.master },
      { name: version, master: candidate },
      loadConfig(DEFAULT_CONFIG),
      states,
      { seed, seeds, days, start: now },
      d.previewThreads,
      true,
    );
    return E.right({
      inForce: inForce.version,
      candidate: version,
      players: states.length,
      days,
      seeds,
      seed,
      from: formatTime(now, d.offsetOf(ctx)),
      testing: c.testing,
      rows: c.rows,
      tookMs: Date.now() - t0,
    });
  } finally {
    busy.running = false;
  }
};

const cancel = async (d: MasterRouteDeps, ctx: MasterCtx): Promise<Answer> => {
  const id = Number(ctx.params['scheduleId']);
  if (!Number.isSafeInteger(id) || id < 1) return invalid('scheduleId', 'must be a positive integer');
  const now = d.nowOf(ctx);
  const book = d.service.book;
  if (!(await book.cancel(id, now)))
    return E.left(gameError('NOT_FOUND', { entity: 'scheduled version not yet in effect', id }));
  const entry = book.known.schedule.find((e) => e.id === id) as MasterScheduleEntry;
  return E.right({ cancelled: scheduleView(entry, d.offsetOf(ctx)) });
};

export const masterRoutes = (d: MasterRouteDeps): void => {
  d.route('adminPublishMaster', (ctx) => publish(d, ctx));
  d.route('adminScheduleMaster', (ctx) => schedule(d, ctx));
  d.route('adminCancelMasterSchedule', (ctx) => cancel(d, ctx));
  // One preview at a time in a process: each takes the cores it is given for a while.
  const busy = { running: false };
  d.route('adminPreviewMaster', (ctx) => preview(d, ctx, busy));
};
