// Master data is checked when it is loaded, each problem naming the file and the field: the
// original's endpoints (missions, quest chapters, adv scenes, the app, age brackets, stamina
// items) and the draw history kept (at least 90 days).
import test from 'ava';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { master } from '../../_support/core.js';
import { buildMaster } from '../../../core/master/index.js';
import { masterSourceOf, DEFAULT_FIXTURES, loadMaster, MasterDataError } from '../../../adapters/master/load.js';

const m = master();

const problemsWith = (edit: (raw: Record<string, unknown[] | Record<string, unknown>>) => void): string[] => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown[] | Record<string, unknown>>;
  edit(raw);
  const built = buildMaster(raw);
  return built.ok ? [] : built.problems.map((p) => `${p.file}: ${p.field}: ${p.message}`);
};

test("master data of the original's endpoints is checked at start-up, naming the file and the field", (t) => {
  t.deepEqual(
    problemsWith(() => {}),
    [],
  );
  const missions = (raw: Record<string, unknown>) => raw['missions'] as Array<Record<string, unknown>>;
  t.true(
    problemsWith((raw) => {
      missions(raw)[0]!['counter'] = 'nope';
    }).some((p) => p.startsWith('missions.json: 0.counter')),
  );
  t.true(
    problemsWith((raw) => {
      missions(raw)[6]!['period'] = null;
    }).some((p) => p.startsWith('missions.json: 6.period')),
  );
  t.true(
    problemsWith((raw) => {
      (raw['questChapters'] as Array<{ questIds: number[] }>)[0]!.questIds.push(4242);
    }).some((p) => p.includes('unknown quest 4242')),
  );
  t.true(
    problemsWith((raw) => {
      (raw['questChapters'] as Array<{ questIds: number[] }>)[1]!.questIds.push(1001);
    }).some((p) => p.includes('already in a chapter')),
  );
  t.true(
    problemsWith((raw) => {
      (raw['advScenes'] as unknown[]).splice(0, 1);
    }).some((p) => p.includes('adv-only quest 1000 has no scene')),
  );
  t.true(
    problemsWith((raw) => {
      (raw['advScenes'] as Array<{ questId: number | null }>)[2]!.questId = 1001;
    }).some((p) => p.includes('is not adv-only')),
  );
  t.true(
    problemsWith((raw) => {
      (raw['original'] as { app: { minAbVer: number } }).app.minAbVer = 9;
    }).some((p) => p.includes('app.minAbVer')),
  );
  t.true(
    problemsWith((raw) => {
      (raw['original'] as { ageBrackets: Array<{ minAge: number }> }).ageBrackets[1]!.minAge = 18;
    }).some((p) => p.includes('ageBrackets.1.minAge')),
  );
  t.true(
    problemsWith((raw) => {
      const item = (raw['items'] as Array<Record<string, unknown>>).find((i) => i['itemId'] === 6001)!;
      delete item['staminaPercent'];
    }).some((p) => p.includes('staminaPercent')),
  );
});

test('master data keeping less than 90 days of draw history is refused at load, naming the field', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-history-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(DEFAULT_FIXTURES, dir, { recursive: true });
  const path = join(dir, 'game.json');
  const game = JSON.parse(readFileSync(path, 'utf8')) as { gacha: { historyDays: number } };
  for (const days of [7, 89]) {
    game.gacha.historyDays = days;
    writeFileSync(path, JSON.stringify(game));
    const e = t.throws(() => loadMaster(dir), { instanceOf: MasterDataError });
    t.regex(e?.message ?? '', /game\.json: gacha\.historyDays: must be at least 90/);
  }
  game.gacha.historyDays = 90;
  writeFileSync(path, JSON.stringify(game));
  t.is(loadMaster(dir).game.gacha.historyDays, 90);
});
