// The version check (app/version/get, docs/rules/original.md, The version check): abVer for
// a current app, OUTDATED for an older app and OUTDATED_AB_VERSION for older assets;
// versions compare number by number. The operation as the table runs it (no session, no
// player): test/core/app-rules.test.ts.
import test from 'ava';
import { master } from '../../_support/core.js';
import { AppVersionRequest, appVersion, checkAbVer } from '../../../core/operations/app.js';
import { compareVersions } from '../../../core/master/original.js';

const m = master();

const version = (q: Record<string, unknown>) => {
  const d = AppVersionRequest.decode(q);
  if (d._tag === 'Left') throw new Error('bad request');
  return appVersion(m, d.right);
};

test("app/version/get answers abVer and the game's time zone for a current app; an older app is 1 OUTDATED; older assets 30; an unknown platform 102", (t) => {
  t.deepEqual(version({ platform: '2', version: '1.0.3' }), {
    _tag: 'Right',
    right: {
      platform: 2,
      abVer: 3,
      minVersion: '1.0.2',
      latestVersion: '1.0.3',
      storeUrl: 'https://example.com/hoshi/android',
      timeZone: '+09:00',
    },
  });
  // The zone is master data's (game.timezoneOffsetMinutes), not the code's.
  const west = { ...m, game: { ...m.game, timezoneOffsetMinutes: -90 } };
  const answered = appVersion(west, { platform: 2, version: '1.0.3' });
  t.is(answered._tag === 'Right' ? answered.right.timeZone : '', '-01:30');
  t.is(version({ platform: 1, version: '1.0.2', abVer: 2 })._tag, 'Right');
  t.is(version({ platform: 1, version: '1.1' })._tag, 'Right');
  const old = version({ platform: 2, version: '1.0.1' });
  t.like(old._tag === 'Left' ? old.left : {}, { code: 'OUTDATED', minVersion: '1.0.2' });
  const assets = version({ platform: 2, version: '1.0.3', abVer: 1 });
  t.like(assets._tag === 'Left' ? assets.left : {}, { code: 'OUTDATED_AB_VERSION', minAbVer: 2 });
  const platform = version({ platform: 3, version: '1.0.3' });
  t.like(platform._tag === 'Left' ? platform.left : {}, { code: 'INVALID_PARAMETERS', field: 'platform' });
  t.is(AppVersionRequest.decode({ platform: 2, version: '1.0.x' })._tag, 'Left');
  t.is(AppVersionRequest.decode({ platform: 2 })._tag, 'Left');
  t.is(checkAbVer(m, 2)._tag, 'Right');
  t.is(checkAbVer(m, 1)._tag, 'Left');
});

test('versions compare number by number', (t) => {
  t.is(compareVersions('1.10', '1.9'), 1);
  t.is(compareVersions('1.0', '1.0.0'), 0);
  t.is(compareVersions('1.0.1', '1.0.2'), -1);
});
