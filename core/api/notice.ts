// The descriptions of core/operations/notice.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { WireTime } from '../views/codecs.js';
import { objWithOptional } from '../codecs.js';

export const NoticeItem = t.type(
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

export const getAll = describeOp({
  name: 'getAllNotice',
  method: 'GET',
  path: '/notice/get_all',
  group: 'notice',
  summary:
    "The operator's notices in force now (maintenance, banners, updates …), newest first. No session; served during a maintenance; the same for every player, so a cache may keep it for a minute.",
  request: objWithOptional({}, {}, 'GetAllNoticeRequest'),
  response: t.type({ notices: t.array(NoticeItem) }, 'GetAllNoticeResponse'),
  errors: [],
  access: 'public',
  readOnly: true,
  duringMaintenance: true,
  cacheSeconds: 60,
});

/** The group's descriptions, in the table's order. */
export const noticeApi = [getAll] as const;
