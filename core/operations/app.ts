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
import { implementOp, type Outcome } from '../operation.js';
import type { PlayerState } from '../state.js';
import { QuestChaptersResponse, questChapters } from './quest.js';
import * as api from '../api/app.js';
import { type AppVersionRequest, type AppVersionResponse, type APP_VERSION_ERRORS } from '../api/app.js';
export { AppVersionRequest, AppVersion, AppVersionResponse, APP_VERSION_ERRORS } from '../api/app.js';
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

const versionGet = implementOp(api.versionGet, {
  find: { by: 'none' },
  reduce: (s, req, _rng, _now, { master }) => E.map(unchanged<AppVersionResponse>(s))(appVersion(master, req)),
});

const chaptersGet = implementOp(api.chaptersGet, {
  find: { by: 'none' },
  reduce: (s, _req, _rng, now, { master }) => ok({ state: s, response: questChapters(master, now) }),
});

/** A public entry's answer as a reducer's outcome: the unborn state of no one it was given, unchanged. */
const unchanged =
  <Res>(state: PlayerState) =>
  (response: Res): Outcome<Res, never> => ({ state, response });

export const appOps = [versionGet, chaptersGet] as const;
