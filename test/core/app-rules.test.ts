// The version check at its edges (docs/rules/original.md, "The version check"): a
// malformed version and an unknown platform are 102, each naming its field and saying
// what is accepted; the request codec's guard takes exactly what its decoder takes.
import test from 'ava';
import { fails, freshPlayer, master, NOW } from '../_support/core.js';
import { operationNamed } from '../../core/operations/table.js';
import { unbornPlayer } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import { E } from '../../core/shared/result.js';
import { execute } from '../../core/operation.js';
import type { AppVersionResponse } from '../../core/operations/app.js';
import type { GameError } from '../../core/errors.js';

const m = master();
const op = operationNamed('getAppVersion');
const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** app/version/get as the service runs a public entry: the request decoded by its codec, then its reducer on no one. */
const versionGet = (q: Record<string, unknown>) => {
  const d = op.request.decode(q);
  if (d._tag === 'Left') throw new Error(`request ${JSON.stringify(q)} does not decode`);
  return E.map((o: { readonly response: AppVersionResponse }) => o.response)(
    execute(op, unbornPlayer(0), d.right, rngFromSeed('app'), NOW, { master: m, others: [] }),
  );
};

test('a malformed version is 102 naming version and saying what a version looks like', (t) => {
  for (const version of ['1.0.x', '1..0', '1.2.3.4.5', 'v1']) {
    const e = fails(t, 'INVALID_PARAMETERS', 'getAppVersion', freshPlayer(), { platform: 2, version });
    t.is(fieldOf(e), 'version', version);
    t.regex(reasonOf(e), /dot-separated integers/, version);
  }
});

test('an unknown platform is 102 naming platform and listing the platforms master data knows (1 iOS, 2 Android)', (t) => {
  t.deepEqual([...m.platform.keys()], [1, 2], 'the fixtures know iOS and Android');
  for (const platform of [3, 99]) {
    const r = versionGet({ platform, version: '1.0.3' });
    t.like(
      r._tag === 'Left' ? r.left : undefined,
      { code: 'INVALID_PARAMETERS', field: 'platform', reason: 'must be one of 1, 2' },
      String(platform),
    );
  }
  t.is(versionGet({ platform: 1, version: '1.0.3' })._tag, 'Right');
});

test("the request codec's guard takes exactly the versions its decoder takes: strings of 1 to 4 dot-separated integers, nothing else", (t) => {
  const cases: ReadonlyArray<readonly [unknown, boolean]> = [
    ['1.0.3', true],
    ['1', true],
    ['1.2.3.4', true],
    ['10.20', true],
    ['1.2.3.4.5', false],
    ['1.0.x', false],
    ['', false],
    [103, false],
    [1.5, false],
    [['1.0.3'], false],
    [null, false],
  ];
  for (const [version, valid] of cases) {
    const q = { platform: 2, version };
    t.is(op.request.is(q), valid, `guard: ${JSON.stringify(version)}`);
    t.is(op.request.decode(q)._tag, valid ? 'Right' : 'Left', `decoder: ${JSON.stringify(version)}`);
  }
});
