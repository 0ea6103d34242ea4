// The operator's live-game routes: the maintenance window, suspensions, notices and
// the recall of a present send. The window and notices are the service's live-ops
// board (adapters/liveops/board.ts), which every process reads; suspensions and
// recalls are entries on the commit path (logged and replayed like the game's).
import { requestError } from '../../core/codecs.js';
import { gameError, type GameError } from '../../core/errors.js';
import { E } from '../../core/shared/result.js';
import type { PlayerState } from '../../core/state.js';
import { suspensionAt } from '../../core/state/liveops.js';
import { formatTime } from '../../core/time.js';
import type { Maintenance, Notice, Send } from '../liveops/board.js';
import type { GameService, RequestContext } from '../service/service.js';
import { Recall, SetMaintenance, Suspend, WriteNotice } from './admin-liveops-codecs.js';
import { parseOperatorTime, TIME_FORMS } from './admin-time.js';
import { bodyOf, invalid, pathId, type RouteAnswer, type RouteCtx } from './admin-route.js';

type Answer = RouteAnswer;
type Ctx = RouteCtx;

/** What the routes need of the admin router. */
export interface LiveOpsRouteDeps {
  readonly route: (name: string, handler: (ctx: Ctx) => Promise<Answer>) => void;
  readonly service: GameService;
  readonly nowOf: (ctx: Ctx) => number;
  readonly offsetOf: (ctx: Ctx) => number;
  /** Who acts (the operator's name; "admin" for the shared token). */
  readonly actorOf: (ctx: Ctx) => string;
  /** The request's context for the service (its time and id). */
  readonly contextOf: (ctx: Ctx) => RequestContext;
}

/** An optional instant: absent or null is `dflt`; else parsed, or why not. */
const instant = (
  given: string | null | undefined,
  field: string,
  offset: number,
  dflt: number | null,
): E.Either<Answer, number | null> => {
  if (given === undefined || given === null) return E.right(dflt);
  const ms = parseOperatorTime(given, offset);
  return ms === undefined ? E.left(invalid(field, `must be ${TIME_FORMS}`)) : E.right(ms);
};

const playerIdOf = (ctx: Ctx): E.Either<Answer, number> => pathId(ctx, 'playerId');

export const liveOpsRoutes = (d: LiveOpsRouteDeps): void => {
  const { service } = d;
  const liveOps = service.liveOps;
  const time = (ctx: Ctx, ms: number) => formatTime(ms, d.offsetOf(ctx));
  const maintenanceView = (ctx: Ctx, m: Maintenance | null) => ({
    maintenance: m && {
      ...m,
      from: time(ctx, m.from),
      until: time(ctx, m.until),
      setAt: time(ctx, m.setAt),
      inForce: liveOps.maintenanceAt(d.nowOf(ctx)) !== null,
    },
  });
  const noticeView = (ctx: Ctx, n: Notice) => ({
    ...n,
    from: time(ctx, n.from),
    until: n.until === null ? null : time(ctx, n.until),
    createdAt: time(ctx, n.createdAt),
    withdrawnAt: n.withdrawnAt === null ? null : time(ctx, n.withdrawnAt),
    inForce: liveOps.noticesAt(d.nowOf(ctx)).some((x) => x.id === n.id),
  });
  const sendView = (ctx: Ctx, s: Send) => ({
    sendId: s.id,
    at: time(ctx, s.at),
    by: s.by,
    grant: s.grant,
    title: s.title,
    target: s.target,
    sent: s.sent,
    recalledAt: s.recalledAt === null ? null : time(ctx, s.recalledAt),
    removed: s.removed,
    alreadyReceived: s.alreadyReceived,
  });
  const suspensionsView = (ctx: Ctx, s: PlayerState) => ({
    suspended: suspensionAt(s, d.nowOf(ctx)) !== null,
    suspensions: s.suspensions.map((x) => ({
      from: time(ctx, x.from),
      until: x.until === null ? null : time(ctx, x.until),
      reason: x.reason,
      by: x.by,
      liftedAt: x.liftedAt === null ? null : time(ctx, x.liftedAt),
    })),
  });
  const suspensionsOf = async (ctx: Ctx, id: number): Promise<Answer> => {
    const s = await service.operator.readPlayer(id);
    return s ? E.right(suspensionsView(ctx, s)) : E.left({ noSuchPlayer: id });
  };

  d.route('adminMaintenance', async (ctx) => {
    await liveOps.refresh();
    return E.right(maintenanceView(ctx, liveOps.window));
  });

  d.route('adminSetMaintenance', async (ctx) => {
    const req = SetMaintenance.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const now = d.nowOf(ctx);
    const from = instant(req.right.from, 'from', d.offsetOf(ctx), now);
    if (E.isLeft(from)) return from.left;
    const until = instant(req.right.until, 'until', d.offsetOf(ctx), null);
    if (E.isLeft(until)) return until.left;
    const start = Math.max(from.right ?? now, now);
    const end = until.right as number;
    if (end <= start) return invalid('until', 'must be later than the start (and than now)');
    const m: Maintenance = {
      from: start,
      until: end,
      message: req.right.message,
      allowPlayerIds: [...new Set(req.right.allowPlayerIds ?? [])],
      by: d.actorOf(ctx),
      setAt: now,
    };
    await liveOps.setMaintenance(m);
    return E.right(maintenanceView(ctx, m));
  });

  d.route('adminEndMaintenance', async (ctx) => {
    const was = liveOps.window;
    if (!(await liveOps.clearMaintenance()))
      return E.left(gameError('NOT_FOUND', { entity: 'maintenance window', id: 1 }));
    return E.right(maintenanceView(ctx, was));
  });

  d.route('adminSuspensions', async (ctx) => {
    const id = playerIdOf(ctx);
    return E.isLeft(id) ? id.left : suspensionsOf(ctx, id.right);
  });

  d.route('adminSuspend', async (ctx) => {
    const id = playerIdOf(ctx);
    if (E.isLeft(id)) return id.left;
    const req = Suspend.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const until = instant(req.right.until, 'until', d.offsetOf(ctx), null);
    if (E.isLeft(until)) return until.left;
    const r = await service.operator.suspend(
      id.right,
      { until: until.right, reason: req.right.reason, by: d.actorOf(ctx) },
      d.contextOf(ctx),
    );
    if (E.isLeft(r)) return E.left(r.left.code === 'PLAYER_NOT_FOUND' ? { noSuchPlayer: id.right } : r.left);
    return suspensionsOf(ctx, id.right);
  });

  d.route('adminUnsuspend', async (ctx) => {
    const id = playerIdOf(ctx);
    if (E.isLeft(id)) return id.left;
    const r = await service.operator.suspend(id.right, 'lift', d.contextOf(ctx));
    if (E.isLeft(r)) return E.left(r.left.code === 'PLAYER_NOT_FOUND' ? { noSuchPlayer: id.right } : r.left);
    return suspensionsOf(ctx, id.right);
  });

  d.route('adminNotices', async (ctx) => {
    await liveOps.refresh();
    return E.right({ notices: liveOps.allNotices.map((n) => noticeView(ctx, n)) });
  });

  d.route('adminWriteNotice', async (ctx) => {
    const req = WriteNotice.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const now = d.nowOf(ctx);
    const from = instant(req.right.from, 'from', d.offsetOf(ctx), now);
    if (E.isLeft(from)) return from.left;
    const until = instant(req.right.until, 'until', d.offsetOf(ctx), null);
    if (E.isLeft(until)) return until.left;
    const start = from.right ?? now;
    if (until.right !== null && until.right <= Math.max(start, now))
      return invalid('until', 'must be later than the start (and than now)');
    const { kind, title, body } = req.right;
    const notice = await liveOps.addNotice({
      kind,
      title,
      body,
      from: start,
      until: until.right,
      by: d.actorOf(ctx),
      createdAt: now,
      withdrawnAt: null,
    });
    return E.right({ notice: noticeView(ctx, notice) });
  });

  d.route('adminWithdrawNotice', async (ctx) => {
    const given = pathId(ctx, 'noticeId');
    if (E.isLeft(given)) return given.left;
    const id = given.right;
    const n = await liveOps.withdrawNotice(id, d.nowOf(ctx));
    return n
      ? E.right({ notice: noticeView(ctx, n) })
      : E.left(gameError('NOT_FOUND', { entity: 'notice in force', id }));
  });

  d.route('adminSends', async (ctx) => E.right({ sends: (await liveOps.sends()).map((s) => sendView(ctx, s)) }));

  d.route('adminRecallSend', async (ctx) => {
    const req = Recall.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const r = await service.operator.recall(req.right.sendId, d.contextOf(ctx));
    return E.isLeft(r) ? r : E.right(r.right);
  });
};
