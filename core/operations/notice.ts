// The operator's notices, as players read them: those in force now (written, started,
// not ended, not withdrawn), newest first. No session: a client shows them before
// log-in, and during a maintenance (they say why the game is closed).
import * as t from 'io-ts';
import { objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import { ok } from '../shared/result.js';
import { formatTime } from '../time.js';
import { WireTime } from '../views/codecs.js';

const NoticeItem = t.type(
  {
    noticeId: t.number,
    /** maintenance, banner, update, event or info: how a client may show it. */
    kind: t.string,
    title: t.string,
    body: t.string,
    /** When it started to show, and when it stops (null: until withdrawn), in the game's time zone. */
    startAt: WireTime,
    endAt: t.union([WireTime, t.null]),
  },
  'NoticeItem',
);

const getAll = defineOp({
  name: 'getAllNotice',
  method: 'GET',
  path: '/notice/get_all',
  group: 'notice',
  summary:
    "The operator's notices in force now (maintenance, banners, updates …), newest first. No session; served during a maintenance; the same for every player, so a cache may keep it for a minute.",
  request: objWithOptional({}, {}, 'GetAllNoticeRequest'),
  response: t.type({ notices: t.array(NoticeItem) }, 'GetAllNoticeResponse'),
  errors: [],
  find: { by: 'none' },
  readOnly: true,
  duringMaintenance: true,
  cacheSeconds: 60,
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
