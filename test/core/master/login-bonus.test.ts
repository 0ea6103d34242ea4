// loginBonus.json is checked when it is loaded, each problem naming the file and the
// field (core/master/loginBonus.ts): the consecutive days in order, the milestones in
// order, a reward in every entry, every reward's thing known, and the codec's own checks.
import test from 'ava';
import { master } from '../../_support/core.js';
import { buildMaster } from '../../../core/master/index.js';
import { masterSourceOf } from '../../../adapters/master/load.js';

type Calendar = {
  consecutive: Array<{ day: unknown; rewards: Array<Record<string, unknown>> }>;
  total: Array<{ days: unknown; repeatEvery: unknown; rewards: Array<Record<string, unknown>> }>;
};

const problemsWith = (edit: (c: Calendar) => void): string[] => {
  const raw = structuredClone(masterSourceOf(master())!.raw) as Record<string, unknown>;
  edit(raw['loginBonus'] as Calendar);
  const built = buildMaster(raw);
  return built.ok ? [] : built.problems.map((p) => `${p.file}: ${p.field}: ${p.message}`);
};

test('the bundled calendar is valid: a seven-day cycle and milestones from the first day', (t) => {
  t.deepEqual(
    problemsWith(() => {}),
    [],
  );
  const m = master();
  t.deepEqual(
    m.loginBonus.consecutive.map((d) => d.day),
    [1, 2, 3, 4, 5, 6, 7],
  );
  t.is(m.loginBonus.total[0]?.days, 1);
});

test('consecutive days must run 1, 2, 3… in order', (t) => {
  t.deepEqual(
    problemsWith((c) => {
      c.consecutive[2]!.day = 4;
    }),
    ['loginBonus.json: consecutive.2.day: days must run 1, 2, 3…; expected 3'],
  );
  t.deepEqual(
    problemsWith((c) => {
      c.consecutive.splice(0, 1);
    })[0],
    'loginBonus.json: consecutive.0.day: days must run 1, 2, 3…; expected 1',
  );
});

test('milestones must be listed by their days, each once', (t) => {
  t.deepEqual(
    problemsWith((c) => {
      c.total[2]!.days = c.total[1]!.days;
    }),
    ['loginBonus.json: total.2.days: milestones must be listed by days, each once'],
  );
  const reversed = problemsWith((c) => {
    c.total.reverse();
  });
  t.is(reversed.length, master().loginBonus.total.length - 1, 'each milestone after the first is out of order');
});

test('every day and milestone gives at least one reward', (t) => {
  t.deepEqual(
    problemsWith((c) => {
      c.consecutive[0]!.rewards = [];
      c.total[1]!.rewards = [];
    }),
    [
      'loginBonus.json: consecutive.0.rewards: at least one reward',
      'loginBonus.json: total.1.rewards: at least one reward',
    ],
  );
});

test("a reward's thing must exist: an unknown item, character or weapon, or a currency with an object id", (t) => {
  t.deepEqual(
    problemsWith((c) => {
      c.consecutive[1]!.rewards[0]!['grant'] = { kind: 'item', objectId: 424242, amount: 1 };
      c.consecutive[3]!.rewards[0]!['grant'] = { kind: 'character', objectId: 1, amount: 1 };
      c.total[0]!.rewards[0]!['grant'] = { kind: 'gem', objectId: 5, amount: 1 };
      c.total[1]!.rewards[0]!['grant'] = { kind: 'weapon', objectId: 9, amount: 1 };
    }),
    [
      'loginBonus.json: consecutive.1.rewards.0.grant.objectId: no item 424242',
      'loginBonus.json: consecutive.3.rewards.0.grant.objectId: no character 1',
      'loginBonus.json: total.0.rewards.0.grant.objectId: no gem 5',
      'loginBonus.json: total.1.rewards.0.grant.objectId: no weapon 9',
    ],
  );
  t.deepEqual(
    problemsWith((c) => {
      c.consecutive[1]!.rewards[0]!['grant'] = { kind: 'townFacility', objectId: 999999, amount: 1 };
      c.consecutive[2]!.rewards[0]!['grant'] = { kind: 'roomObject', objectId: 999999, amount: 1 };
    }),
    [
      'loginBonus.json: consecutive.1.rewards.0.grant.objectId: no townFacility 999999',
      'loginBonus.json: consecutive.2.rewards.0.grant.objectId: no roomObject 999999',
    ],
  );
});

test("the codec's checks name the field: days and repeatEvery positive, a grant's kind, a title, a deadline", (t) => {
  const problems = problemsWith((c) => {
    c.consecutive[0]!.day = 0;
    c.total[0]!.repeatEvery = 0;
    c.total[1]!.days = 'five';
    c.consecutive[1]!.rewards[0]!['grant'] = { kind: 'love', objectId: 0, amount: 1 };
    c.consecutive[2]!.rewards[0]!['title'] = '';
    c.consecutive[3]!.rewards[0]!['deadlineDays'] = -1;
  });
  for (const field of [
    'consecutive.0.day',
    'total.0.repeatEvery',
    'total.1.days',
    'consecutive.1.rewards.0.grant.kind',
    'consecutive.2.rewards.0.title',
    'consecutive.3.rewards.0.deadlineDays',
  ])
    t.true(
      problems.some((p) => p.startsWith(`loginBonus.json: ${field}`)),
      `${field}: ${problems.join(' | ')}`,
    );
});
