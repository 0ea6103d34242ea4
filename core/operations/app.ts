// The app's version check, before any log-in: per platform a minimum app version
// (older is refused with 1 OUTDATED) and the asset-bundle version (abVer) the clients
// send back as X-STAR-AB (older than the minimum is refused with 30 OUTDATED_AB_VERSION).
// Pure functions of master data: no player, no session (fixtures/original.json).
import * as t from 'io-ts';
import { PosInt, described, objWithOptional } from '../codecs.js';
import { zoneText } from '../time.js';
import type { Master } from '../master/index.js';
import { VERSION_PATTERN, compareVersions } from '../master/original.js';
import { E, fail, ok, type Result } from '../shared/result.js';
import { defineOp, type Outcome } from '../operation.js';
import type { PlayerState } from '../state.js';
import { QuestChaptersResponse, questChapters } from './quest.js';

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
type AppVersionError = (typeof APP_VERSION_ERRORS)[number];

/** The asset-bundle check of a client's abVer (the X-STAR-AB header, or version/get's abVer). */
export const checkAbVer = (m: Master, abVer: number): Result<true, 'OUTDATED_AB_VERSION'> =>
  abVer < m.original.app.minAbVer
    ? fail('OUTDATED_AB_VERSION', { abVer, minAbVer: m.original.app.minAbVer })
    : ok(true);

/**
 * version/get: an unknown platform is 102; an app older than the platform's minimum
 * is 1 OUTDATED; asset bundles (abVer, when given) older than the minimum are 30.
 */
export const appVersion = (m: Master, req: AppVersionRequest): Result<AppVersionResponse, AppVersionError> => {
  const p = m.platform.get(req.platform);
  if (!p)
    return fail('INVALID_PARAMETERS', {
      field: 'platform',
      reason: `must be one of ${[...m.platform.keys()].join(', ')}`,
    });
  if (compareVersions(req.version, p.minVersion) < 0)
    return fail('OUTDATED', { version: req.version, minVersion: p.minVersion });
  if (req.abVer !== undefined) {
    const ab = checkAbVer(m, req.abVer);
    if (ab._tag === 'Left') return ab;
  }
  return ok({
    platform: p.platform,
    abVer: m.original.app.abVer,
    minVersion: p.minVersion,
    latestVersion: p.latestVersion,
    storeUrl: p.storeUrl,
    timeZone: zoneText(m.game.timezoneOffsetMinutes),
  });
};

const versionGet = defineOp({
  name: 'getAppVersion',
  method: 'GET',
  path: '/app/version/get',
  group: 'app',
  summary:
    "The version check before log-in (no session): answers the asset-bundle version abVer (send it back as X-STAR-AB); an app older than its platform's minimum is 1 OUTDATED, assets (abVer) older than the minimum 30 OUTDATED_AB_VERSION, an unknown platform 102.",
  request: AppVersionRequest,
  response: AppVersionResponse,
  errors: [...APP_VERSION_ERRORS],
  find: { by: 'none' },
  reduce: (s, req, _rng, _now, { master }) => E.map(unchanged<AppVersionResponse>(s))(appVersion(master, req)),
  readOnly: true,
  // The client's first call: it learns of a maintenance from the next one, and the notices say why.
  duringMaintenance: true,
});

const chaptersGet = defineOp({
  name: 'getAllQuestChapter',
  method: 'GET',
  path: '/quest_chapter/get_all',
  group: 'quest',
  summary:
    'The quest chapters (global master data, no session): story chapters always, event chapters in their period, each with its quests in play order.',
  request: objWithOptional({}, {}, 'GetAllQuestChapterRequest'),
  response: QuestChaptersResponse,
  errors: [],
  find: { by: 'none' },
  reduce: (s, _req, _rng, now, { master }) => ok({ state: s, response: questChapters(master, now) }),
  readOnly: true,
});

/** A public entry's answer as a reducer's outcome: the unborn state of no one it was given, unchanged. */
const unchanged =
  <Res>(state: PlayerState) =>
  (response: Res): Outcome<Res, never> => ({ state, response });

export const appOps = [versionGet, chaptersGet] as const;
