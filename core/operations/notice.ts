// The operator's notices, as players read them: those in force now (written, started,
// not ended, not withdrawn), newest first. No session: a client shows them before
// log-in, and during a maintenance (they say why the game is closed).
import * as t from 'io-ts';
import { objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import { ok } from '../shared/result.js';
import { formatTime } from '../time.js';
import { WireTime } from '../views/codecs.js';
import * as api from '../api/notice.js';

const getAll = implementOp(api.getAll, {
  find: { by: 'none' },
  reduce: (s, _req, _rng, _now, { master, notices }) => {
    const time = (ms: number) => formatTime(ms, master.game.timezoneOffsetMinutes);
    return ok({
      state: s,
      response: {
        notices: (notices ?? []).map((n) => ({
          noticeId: n.id,
          kind: n.kind,
          title: n.title,
          body: n.body,
          startAt: time(n.from),
          endAt: n.until === null ? null : time(n.until),
        })),
      },
    });
  },
});

export const noticeOps = [getAll] as const;
