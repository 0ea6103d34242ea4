// The descriptions of core/operations/app.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { VERSION_PATTERN } from '../master/original.js';
import { objWithOptional, PosInt, described } from '../codecs.js';
import { QuestChaptersResponse } from './quest.js';

/** An app version in a request: 1 to 4 dot-separated integers ("1.0.3"). */
export const AppVersion = new t.Type<string, string, unknown>(
  'AppVersion',
  (u): u is string => typeof u === 'string' && VERSION_PATTERN.test(u),
  (u, c) =>
    typeof u === 'string' && VERSION_PATTERN.test(u)
      ? t.success(u)
      : t.failure(u, c, 'must be a version of dot-separated integers, e.g. 1.0.3'),
  (s) => s,
);

export const AppVersionRequest = objWithOptional(
  { platform: PosInt, version: AppVersion },
  // The asset-bundle version the client holds, when it has one (what it sends as X-STAR-AB).
  { abVer: PosInt },
  'GetAppVersionRequest',
);
export type AppVersionRequest = t.TypeOf<typeof AppVersionRequest>;

export const AppVersionResponse = t.type(
  {
    platform: t.number,
    /** The asset-bundle version: send it back as the X-STAR-AB header. */
    abVer: t.number,
    /** The oldest app version served, and the newest release. */
    minVersion: t.string,
    latestVersion: t.string,
    /** Where to update the app. */
    storeUrl: t.string,
    /** The game's time zone, "+09:00": every time in an answer is written in it, without the offset. */
    timeZone: described(
      t.string,
      'The game\'s time zone as a UTC offset, e.g. "+09:00": every time in a request or answer is written in it, without the offset.',
    ),
  },
  'GetAppVersionResponse',
);
export type AppVersionResponse = t.TypeOf<typeof AppVersionResponse>;

export const APP_VERSION_ERRORS = ['INVALID_PARAMETERS', 'OUTDATED', 'OUTDATED_AB_VERSION'] as const;

export const versionGet = describeOp({
  name: 'getAppVersion',
  method: 'GET',
  path: '/app/version/get',
  group: 'app',
  summary:
    "The version check before log-in (no session): answers the asset-bundle version abVer (send it back as X-STAR-AB); an app older than its platform's minimum is 1 OUTDATED, assets (abVer) older than the minimum 30 OUTDATED_AB_VERSION, an unknown platform 102.",
  request: AppVersionRequest,
  response: AppVersionResponse,
  errors: [...APP_VERSION_ERRORS],
  access: 'public',
  readOnly: true,
  // The client's first call: it learns of a maintenance from the next one, and the notices say why.
  duringMaintenance: true,
});

export const chaptersGet = describeOp({
  name: 'getAllQuestChapter',
  method: 'GET',
  path: '/quest_chapter/get_all',
  group: 'quest',
  summary:
    'The quest chapters (global master data, no session): story chapters always, event chapters in their period, each with its quests in play order.',
  request: objWithOptional({}, {}, 'GetAllQuestChapterRequest'),
  response: QuestChaptersResponse,
  errors: [],
  access: 'public',
  readOnly: true,
});

/** The group's descriptions, in the table's order. */
export const appApi = [versionGet, chaptersGet] as const;
