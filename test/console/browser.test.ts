// How the console's tests and screenshots find a Chromium: CHROMIUM_PATH, else the
// machine's chromium, else the one the npm package @sparticuz/chromium brings, so
// `npm ci` alone gives a fresh machine a browser (scripts/lib/browser.ts).
import test from 'ava';
import { chooseChromium, SYSTEM_CHROMIUMS } from '../../scripts/lib/browser.js';
import { packagedChromiumBin } from '../../scripts/lib/packaged-chromium.js';

const only =
  (...present: string[]) =>
  (path: string): boolean =>
    present.includes(path);
const SYSTEM = SYSTEM_CHROMIUMS[0] as string;

test('CHROMIUM_PATH comes first, then the machine chromium, then the packaged one', (t) => {
  t.deepEqual(chooseChromium('/opt/c', only('/opt/c', SYSTEM), '/pkg/bin'), { from: 'CHROMIUM_PATH', path: '/opt/c' });
  t.deepEqual(chooseChromium(undefined, only(SYSTEM), '/pkg/bin'), { from: 'system', path: SYSTEM });
  t.deepEqual(chooseChromium('', only(SYSTEM), '/pkg/bin'), { from: 'system', path: SYSTEM }, 'an empty one is unset');
  t.deepEqual(chooseChromium(undefined, only(SYSTEM_CHROMIUMS[2] as string), undefined), {
    from: 'system',
    path: SYSTEM_CHROMIUMS[2],
  });
});

test('with neither CHROMIUM_PATH nor a machine chromium, the packaged one is chosen', (t) => {
  t.deepEqual(chooseChromium(undefined, only(), '/pkg/bin'), { from: 'packaged', bin: '/pkg/bin' });
});

test('a CHROMIUM_PATH with nothing there is an error, not a quiet fallback', (t) => {
  t.throws(() => chooseChromium('/nowhere/chromium', only(SYSTEM), '/pkg/bin'), {
    message: 'CHROMIUM_PATH=/nowhere/chromium: no such file',
  });
});

test('no browser at all is an error that says to run npm ci', (t) => {
  t.throws(() => chooseChromium(undefined, only(), undefined), {
    message: /@sparticuz\/chromium is not installed \(run npm ci\)/,
  });
});

test("the packaged browser is installed by the project's own install (a devDependency)", (t) => {
  t.regex(packagedChromiumBin() ?? 'not installed', /@sparticuz\/chromium\/bin$/);
});
