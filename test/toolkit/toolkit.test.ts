// The designers' toolkit (toolkit/): a world of players run through the real
// reducers with the server's seeds and other-player lookups, game-local time,
// value functions, behaviour profiles as data, and the model-based harness.
import test from 'ava';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlayer } from '../../core/account.js';
import { runNamed } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import { deriveSeed } from '../../adapters/service/seed.js';
import {
  assertProperty,
  DAY,
  HOUR,
  gameTime,
  loadConfig,
  NO_SETUP,
  operationsProperty,
  setupPlayer,
  wealth,
  World,
  type Step,
} from '../../toolkit/index.js';
import * as toolkit from '../../toolkit/index.js';
import { master } from '../_support/core.js';

test('World: players sign up as the service signs them up, and each request draws from the seed the server derives', (t) => {
  const w = new World({ master: master(), seedSecret: 'secret' });
  const p = w.createPlayer({ name: 'Aki' });
  t.is(p.playerId, 1);
  const direct = createPlayer(
    master(),
    { playerId: 1, uuid: 'toolkit-1', platform: 1, name: 'Aki', stepCode: 0, tokenHash: '' },
    rngFromSeed(deriveSeed('secret', 'signup', 1, 0)),
    w.now,
  );
  t.deepEqual(direct._tag === 'Right' ? direct.right : null, p);
  w.give(1, { gem: 10_000 });
  const before = w.player(1);
  t.is(
    w.seedFor(1),
    deriveSeed('secret', 1, before.version, 0),
    'HMAC of the secret, the player and the version, attempt 0 (adapters/service/service.ts)',
  );
  const r = w.run('drawPlayerGacha', 1, { gachaId: 2, drawType: 3 });
  const expected = runNamed(
    'drawPlayerGacha',
    before,
    { gachaId: 2, drawType: 3 },
    rngFromSeed(deriveSeed('secret', 1, before.version, 0)),
    w.now,
    { master: master(), others: [] },
  );
  t.deepEqual(r, expected);
  t.is(w.player(1).version, before.version + 1, 'a success is kept');
  t.not(w.seedFor(1), deriveSeed('secret', 1, before.version, 0), 'the next request has a fresh seed');
  const refused = w.run('drawPlayerGacha', 1, { gachaId: 999, drawType: 1 });
  t.is(refused._tag, 'Left');
  t.is(w.player(1).version, before.version + 1, 'a refusal changes nothing');
  t.throws(() => w.createPlayer({ playerId: 1 }));
});

test('World: other players are found by id, friend code, relation and recent activity, and their changes kept', (t) => {
  const w = new World({ master: master() });
  const [a, b, c] = [w.createPlayer(), w.createPlayer(), w.createPlayer()];
  const found = w.run('searchPlayerFriend', a.playerId, { myCode: b.myCode.toLowerCase() });
  t.is(found._tag === 'Right' ? found.right.response.player.playerId : 0, b.playerId);
  t.is(w.run('proposePlayerFriend', a.playerId, { playerId: b.playerId })._tag, 'Right');
  t.is(w.player(b.playerId).friends[0]?.state, 'received', "the other player's change is kept");
  t.is(w.run('acceptPlayerFriend', b.playerId, { playerId: a.playerId })._tag, 'Right');
  const all = w.run('getAllPlayerFriend', a.playerId, { fromQuest: true });
  if (all._tag === 'Left') return t.fail(all.left.code);
  t.deepEqual(
    all.right.response.friends.map((f) => f.playerId),
    [b.playerId],
  );
  t.true(all.right.response.guests.every((g) => g.playerId === c.playerId));
  t.deepEqual(
    w.othersFor('getAllPlayerFriend', a.playerId, { fromQuest: true }).map((p) => p?.playerId),
    [b.playerId, b.playerId, c.playerId],
    'related, then the recently active',
  );
});

test("World: receiveAll takes every present; sendPresent is the operator's present", (t) => {
  const w = new World({ master: master() });
  const p = w.createPlayer();
  t.true(p.presents.length > 0, 'the welcome set');
  w.sendPresent(p.playerId, { kind: 'gem', objectId: 0, amount: 100 });
  const after = w.receiveAll(p.playerId);
  t.is(after.presents.length, 0);
  t.true(after.gem >= 100);
});

test('gameTime: game-local instants, game days from the reset hour, periods as the reducers read them', (t) => {
  const m = master();
  const time = gameTime(m);
  const noon = time.at('2026-11-21T12:00:00');
  t.is(time.format(noon), '2026-11-21T12:00:00');
  t.is(time.at('2026-11-21'), time.at('2026-11-21T00:00:00'));
  t.is(time.weekday(noon), 6, 'a Saturday');
  const start = time.dayStart(time.day(noon));
  t.is(time.format(start), `2026-11-21T${String(m.game.dayResetHour).padStart(2, '0')}:00:00`);
  t.is(time.nextDay(noon), start + DAY);
  t.is(time.day(time.nextDay(noon)), time.day(noon) + 1);
  t.throws(() => time.at('21/11/2026'));
  // A recipe is listed exactly inside its period.
  const recipe = m.tradeRecipes.find((r) => r.recipeId === 6)!;
  const w = new World({ master: m });
  const p = w.createPlayer();
  const listed = (at: number) => {
    const r = w.run('getAllPlayerItemTradeRecipe', p.playerId, {}, { now: at });
    return r._tag === 'Right' && r.right.response.recipes.some((x) => x.recipeId === 6);
  };
  const { start: from, end } = time.bounds(recipe.period!);
  t.true(time.inPeriod(recipe.period, time.during(recipe.period!)) && listed(time.during(recipe.period!)));
  t.false(time.inPeriod(recipe.period, from - 1) || listed(from - 1));
  t.false(time.inPeriod(recipe.period, end!) || listed(end!));
  t.true(time.inPeriod(null, 0));
});

test('wealth: coins, gems, and items, weapons and presents at sale value; a sale conserves the sale value', (t) => {
  const m = master();
  const w = new World({ master: m });
  const p = w.createPlayer();
  const s = w.give(p.playerId, { gold: 1000, gem: 50, paidGem: 7, items: { 2001: 10 } });
  const v = wealth(m, s);
  t.is(v.coins, 1000);
  t.is(v.gems, 57);
  t.is(
    v.items,
    s.items.reduce((a, x) => a + (m.item.get(x.itemId)?.salePrice ?? 0) * x.amount, 0),
  );
  t.true(v.presents > 0, 'the welcome presents hold coins');
  t.is(v.saleValue, v.coins + v.items + v.weapons + v.presents);
  w.run('salePlayerItem', p.playerId, { itemId: 2001, amount: 4 });
  t.is(wealth(m, w.player(p.playerId)).saleValue, v.saleValue);
});

test('profiles: behaviour profiles are data (toolkit/profiles.json), a bad file refused with the field', (t) => {
  const c = loadConfig();
  t.deepEqual(
    c.profiles.map((p) => p.name),
    ['casual', 'daily', 'saver', 'whale'],
  );
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-profiles-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ ...c, profiles: [{ ...c.profiles[0], playChance: 2 }] }));
  t.throws(() => loadConfig(bad), { message: /playChance/ });
});

test("the harness: a failing check is shrunk to a short sequence naming each step's request", (t) => {
  const m = master();
  const property = operationsProperty({
    setup: fc.constant(null),
    world: () => {
      const w = new World({ master: m });
      setupPlayer(w, { ...NO_SETUP, kit: 1 });
      return w;
    },
    operations: ['salePlayerItem', 'getAllPlayerItemTradeRecipe'],
    minutes: fc.constant(0),
    // A deliberately false claim: "coins never rise".
    check: ({ player }) => player.after.gold <= player.before.gold || 'coins rose',
  });
  const out = fc.check(property, { numRuns: 100, seed: 1 });
  t.true(out.failed);
  const shown = fc.defaultReportMessage(out) ?? '';
  t.regex(shown, /salePlayerItem\(player#\d+, \+0min, \{"itemId":\d+,"amount":\d+\}\)/);
  t.regex(
    String((out.errorInstance as Error | undefined)?.message),
    /step \d+ salePlayerItem by player 1 .*: coins rose/,
  );
  t.true((out.counterexample?.[1] as unknown as { commands: unknown[] } | undefined)?.commands?.length !== 0);
});

test('the harness checks determinism: the same players, request, seed and time give the same result', (t) => {
  let steps = 0;
  fc.assert(
    operationsProperty({
      setup: fc.constant(null),
      world: () => {
        const w = new World({ master: master() });
        setupPlayer(w, { ...NO_SETUP, kit: 1, gem: 5000 });
        setupPlayer(w, NO_SETUP);
        return w;
      },
      maxSteps: 10,
      minutes: fc.constantFrom(0, HOUR / 60_000),
      check: () => {
        steps++;
        return true;
      },
    }),
    { numRuns: 20, seed: 3 },
  );
  t.true(steps > 50);
});

test("assertProperty: a failing property's message names the failed check's message, not only the counterexample", (t) => {
  const m = master();
  const property = () =>
    operationsProperty({
      setup: fc.constant(null),
      world: () => {
        const w = new World({ master: m });
        setupPlayer(w, { ...NO_SETUP, kit: 1 });
        return w;
      },
      operations: ['salePlayerItem'],
      minutes: fc.constant(0),
      // A deliberately false claim: "coins never rise".
      check: ({ player }) => player.after.gold <= player.before.gold || 'coins rose on a sale',
    });
  // fast-check 4 alone: the check's message is only the error's cause, which ava does not print.
  const plain = t.throws(() => fc.assert(property(), { numRuns: 100, seed: 1 }));
  t.notRegex(plain?.message ?? '', /coins rose on a sale/);
  const e = t.throws(() => assertProperty(property(), { numRuns: 100, seed: 1 }));
  t.regex(e?.message ?? '', /^step \d+ salePlayerItem by player 1 \{.*\}: coins rose on a sale\n/);
  t.regex(e?.message ?? '', /Counterexample: .*salePlayerItem\(player#\d+, \+0min, \{"itemId":\d+,"amount":\d+\}\)/);
  t.true(e?.cause instanceof Error, "the check's error stays the cause");
  t.notThrows(() =>
    assertProperty(
      fc.property(fc.nat(), (n) => n >= 0),
      { numRuns: 20, seed: 1 },
    ),
  );
});

test("typed steps: the check's request and answer are the named operation's, the sender's states at hand; fast-check comes with the toolkit", (t) => {
  t.is(toolkit.fc.nat, fc.nat, 'the toolkit re-exports the same fast-check');
  const seen: Array<{ gachaId: number; drawn: number; senders: boolean }> = [];
  const refused: string[] = [];
  // Written against Step<'drawPlayerGacha'>: no cast reads the request or the answer.
  const check = (step: Step<'drawPlayerGacha'>): true => {
    if (!step.ok) {
      refused.push(step.error.code);
      return true;
    }
    const senders =
      step.player.before === step.before.get(step.playerId) &&
      step.player.after === step.after.get(step.playerId) &&
      step.player.after.version === step.player.before.version + 1;
    seen.push({ gachaId: step.request.gachaId, drawn: step.answer.gachaResults.length, senders });
    return true;
  };
  assertProperty(
    operationsProperty({
      setup: fc.constant(null),
      world: () => {
        const w = new World({ master: master() });
        setupPlayer(w, { ...NO_SETUP, gem: 100_000 });
        return w;
      },
      operations: ['drawPlayerGacha'],
      maxSteps: 5,
      check,
    }),
    { numRuns: 10, seed: 4 },
  );
  t.true(seen.length > 0, 'some draws succeeded');
  t.true(seen.every((d) => d.gachaId > 0 && d.drawn > 0));
  t.true(
    seen.every((d) => d.senders),
    "step.player is the sender's state before and after the step",
  );
  t.true(refused.every((c) => typeof c === 'string'));
});
