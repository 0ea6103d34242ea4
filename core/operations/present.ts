// The present box: list, receive (each present on its own: what does not fit stays),
// and the recently received list.
import type * as t from 'io-ts';
import { IdList, Int, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState, Present, ReceivedPresent } from '../state.js';
import { DAY } from '../time.js';
import { fail, ok } from '../shared/result.js';
import { tryGrant } from '../shared/grant.js';
import { RESULT_CODES, messageOf } from '../errors.js';
import { presentView, timeText, type ViewCtx } from '../view.js';
import { PresentView, WireTime } from '../views/codecs.js';
import { applyStep } from './tutorial.js';
import * as api from '../api/present.js';
import { type ReceivedPresentView, type NotReceived, type NotReceivedReason } from '../api/present.js';
export { ReceivedPresentView } from '../api/present.js';

const newestFirst = <P extends Present>(a: P, b: P): number =>
  b.createdAt - a.createdAt || b.managedPresentId - a.managedPresentId;
const live = (p: Present, now: number): boolean => p.deadline === null || p.deadline > now;

const receivedView = (p: ReceivedPresent, ctx: ViewCtx): ReceivedPresentView => ({
  ...presentView(p, ctx),
  receivedAt: timeText(ctx, p.receivedAt),
});

/** The received list kept: the configured count, no older than the configured age, newest first. */
const keepReceived = (m: Master, list: ReadonlyArray<ReceivedPresent>, now: number): ReceivedPresent[] => {
  const horizon = now - m.game.presents.receivedKeepDays * DAY;
  return list
    .filter((p) => p.receivedAt >= horizon)
    .sort((a, b) => b.receivedAt - a.receivedAt || b.managedPresentId - a.managedPresentId)
    .slice(0, m.game.presents.receivedKeepCount);
};

const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master }) =>
    ok({
      state: s,
      response: {
        presents: s.presents
          .filter((p) => live(p, now))
          .sort(newestFirst)
          .map((p) => presentView(p, { master, now })),
      },
    }),
});

const receive = implementOp(api.receive, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const ids = [...new Set(req.managedPresentId)];
    if (ids.length === 0) return fail('INSUFFICIENT_PARAMETERS', { field: 'managedPresentId' });
    if (ids.length > m.game.presents.receiveMax) {
      return fail('INVALID_PARAMETERS', {
        field: 'managedPresentId',
        reason: `at most ${m.game.presents.receiveMax} presents at once`,
      });
    }
    let state: PlayerState = s;
    const got: ReceivedPresent[] = [];
    const notReceived: Array<t.TypeOf<typeof NotReceived>> = [];
    const miss = (id: number, reason: NotReceivedReason, resultCode: number, resultMessage: string) =>
      notReceived.push({ managedPresentId: id, reason, resultCode, resultMessage });
    for (const id of ids) {
      const p = state.presents.find((x) => x.managedPresentId === id);
      if (!p) {
        if (state.received.some((x) => x.managedPresentId === id)) miss(id, 'ALREADY_RECEIVED', 0, 'Already received.');
        else miss(id, 'NOT_FOUND', RESULT_CODES.NOT_FOUND.resultCode, `No present with id ${id}.`);
        continue;
      }
      if (!live(p, now)) {
        miss(id, 'EXPIRED', 0, 'The present expired.');
        continue;
      }
      const r = tryGrant(m, state, { kind: p.kind, objectId: p.objectId, amount: p.amount }, now);
      if (r._tag === 'Left') {
        miss(id, 'CAPACITY', RESULT_CODES[r.left.code].resultCode, messageOf(r.left));
        continue;
      }
      const rec: ReceivedPresent = { ...p, receivedAt: now };
      got.push(rec);
      state = { ...r.right.state, presents: r.right.state.presents.filter((x) => x.managedPresentId !== id) };
    }
    if (got.length > 0) state = { ...state, received: keepReceived(m, [...got, ...state.received], now) };
    const stepped = applyStep(m, state, req.stepCode);
    if (stepped._tag === 'Left') return stepped;
    state = stepped.right;
    const ctx = { master: m, now };
    return ok({
      state,
      response: {
        receivedPresents: got.map((p) => receivedView(p, ctx)),
        notReceived,
        presents: state.presents
          .filter((p) => live(p, now))
          .sort(newestFirst)
          .map((p) => presentView(p, ctx)),
      },
    });
  },
});

const getReceived = implementOp(api.getReceived, {
  reduce: (s, _req, _rng, now, { master }) =>
    ok({
      state: s,
      response: {
        receivedPresents: keepReceived(master, s.received, now).map((p) => receivedView(p, { master, now })),
      },
    }),
});

export const presentOps = [getAll, receive, getReceived] as const;
