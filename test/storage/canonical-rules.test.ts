// The rules of canonical JSON and of stateHash at their edges, each checked against
// an independent computation: canonicalJson against JSON.stringify of a key-sorted
// copy (what JSON leaves out, toJSON, array-index keys, top-level values that are not
// records), and stateHash against the format the replay log records, recomputed here
// from JSON and node:crypto (test/replay/legacy.test.ts: old hashes must still match).
import test from 'ava';
import { createHash } from 'node:crypto';
import { canonicalFields, canonicalJson, changedJson, stateHash } from '../../adapters/storage/canonical.js';
import { groupDefaults, type PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';

/** JSON.stringify with every object's keys sorted (rebuilt in sorted order, as the engine then lists them). */
const sortedAll = (v: unknown): string => {
  const json = JSON.stringify(v, (_k, x: unknown) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) return x;
    const o = x as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  }) as string | undefined;
  if (json === undefined) throw new Error('JSON.stringify gives nothing');
  return json;
};

// ---- stateHash, recomputed from its documented format ----

/** The fields the replay log began with (d21c137): always hashed. Later fields count only off their group default. */
const FROM_THE_START = new Set([
  'schema',
  'version',
  'playerId',
  'name',
  'myCode',
  'createdAt',
  'lastLoginAt',
  'account',
  'level',
  'exp',
  'stamina',
  'gold',
  'gem',
  'paidGem',
  'kirara',
  'limitAdds',
  'nextManagedId',
  'items',
  'characters',
  'weapons',
  'facilities',
  'roomObjects',
  'presents',
  'received',
  'gachaStats',
  'gachaHistory',
  'move',
  'tutorial',
  'counters',
  'supportParties',
  'abilityTrees',
  'trainings',
  'tradeCounts',
  'ownWeaponsReceived',
  'rooms',
  'townLayout',
  'contentRooms',
  'battleParties',
  'friends',
  'achievements',
  'displayedAchievementId',
  'activeQuest',
  'questRecords',
  'chests',
  'offers',
  'offerCompletions',
]);
const sha256 = (data: string | Buffer): Buffer => createHash('sha256').update(data).digest();
/** A list's hex: sha256 over the first 16 bytes of each element's sha256 (of its UTF-8 canonical JSON). */
const listHex = (xs: ReadonlyArray<unknown>): string =>
  sha256(Buffer.concat(xs.map((x) => sha256(sortedAll(x)).subarray(0, 16)))).toString('hex');
const EMPTY_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const defaults = groupDefaults as Record<string, unknown>;
const atDefault = (k: string, v: unknown): boolean => k in defaults && sortedAll(v) === sortedAll(defaults[k]);
const leftOut = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';
/** The hashed text: `{"key":json,…,"list":#hex}`, keys sorted. */
const hashedText = (s: object): string => {
  const o = s as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => !leftOut(o[k]) && (FROM_THE_START.has(k) || !atDefault(k, o[k])))
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${Array.isArray(o[k]) ? `#${listHex(o[k] as unknown[])}` : sortedAll(o[k])}`).join(',')}}`;
};
const expectedHash = (s: object): string => sha256(hashedText(s)).toString('hex');
const as = (o: object): PlayerState => o as PlayerState;
/** Fresh copies of a state's lists: new identities, so no hash of them is known yet. */
const freshLists = (s: PlayerState): PlayerState =>
  as(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v])));

test('canonicalJson of what is not a record: a primitive, null, a list, and what JSON leaves out written null', (t) => {
  for (const v of [
    null,
    0,
    -1.5,
    1e21,
    NaN,
    true,
    false,
    '',
    'ab',
    'ほし "q" \\ \n',
    [],
    [1, 'a', null],
    [{ b: 1, a: 2 }, [{ d: 1, c: 2 }]],
  ]) {
    t.is(canonicalJson(v), sortedAll(v), JSON.stringify(v));
  }
  t.is(canonicalJson('ab'), '"ab"');
  t.is(canonicalJson([{ b: 1, a: 2 }]), '[{"a":2,"b":1}]');
  t.is(canonicalJson(7), '7');
  // JSON.stringify gives no string at all for these; canonicalJson gives null, as in a list.
  t.is(canonicalJson(undefined), 'null');
  t.is(
    canonicalJson(() => 1),
    'null',
  );
  t.is(canonicalJson(Symbol('s')), 'null');
});

test('what JSON leaves out (undefined, a function, a symbol) is left out of objects at every depth and written null in lists', (t) => {
  const nested = {
    p: { u: undefined, f: () => 1, s: Symbol('x'), n: null, k: 1 },
    l: [undefined, () => 1, Symbol('y'), null, 2],
  };
  t.is(canonicalJson(nested), sortedAll(nested));
  t.is(canonicalJson(nested), '{"l":[null,null,null,null,2],"p":{"k":1,"n":null}}');
  for (const [name, x] of [
    ['undefined', undefined],
    ['a function', () => 1],
    ['a symbol', Symbol('z')],
  ] as const) {
    t.is(canonicalJson({ p: { a: x, b: 1 } }), '{"p":{"b":1}}', `${name} in a nested object`);
    t.is(canonicalJson([{ a: x, b: 1 }]), '[{"b":1}]', `${name} in an object in a list`);
    t.is(canonicalJson({ l: [x, 1] }), '{"l":[null,1]}', `${name} in a list`);
    t.is(canonicalJson({ a: x, b: 1 }), '{"b":1}', `${name} at the top`);
    t.is(canonicalJson({ a: x }), '{}', `${name}, the only member at the top`);
  }
  const top = { u: undefined, f: () => 1, s: Symbol('t'), a: 1, n: null };
  t.is(canonicalJson(top), sortedAll(top));
  t.is(canonicalJson(top), '{"a":1,"n":null}');
  // A journal's delta record of a field the state does not have leaves it out.
  const s = freshPlayer();
  t.is(
    canonicalFields(s, ['gold', 'noSuchField', 'name', 'presents']),
    sortedAll({ gold: s.gold, name: s.name, presents: s.presents }),
  );
});

test('toJSON is honoured inside a record and in lists, as JSON.stringify does', (t) => {
  const o = {
    d: new Date(0),
    p: { d: new Date(1), z: 1 },
    l: [new Date(2)],
    c: { toJSON: () => ({ b: 1, a: [{ y: 1, x: 2 }] }) },
  };
  t.is(canonicalJson(o), sortedAll(o));
  t.is(
    canonicalJson(o),
    '{"c":{"a":[{"x":2,"y":1}],"b":1},"d":"1970-01-01T00:00:00.000Z","l":["1970-01-01T00:00:00.002Z"],"p":{"d":"1970-01-01T00:00:00.001Z","z":1}}',
  );
  // A toJSON that gives nothing is written null in a list, as JSON.stringify writes it.
  const none = [{ toJSON: () => undefined }, 1];
  t.is(canonicalJson(none), JSON.stringify(none));
  t.is(canonicalJson(none), '[null,1]');
});

test('array-index keys (integers below 2^32 − 1 written canonically) come first by value, every other key after in sorted order', (t) => {
  const keys = ['b', '4294967295', '1a', '4294967294', '01', '10', '2', '0', '-1', '99999999999', '1.5', 'a', ''];
  const o = Object.fromEntries(keys.map((k, i) => [k, i]));
  const expected =
    '{"0":7,"2":6,"10":5,"4294967294":3,"":12,"-1":8,"01":4,"1.5":10,"1a":2,"4294967295":1,"99999999999":9,"a":11,"b":0}';
  t.is(canonicalJson(o), sortedAll(o));
  t.is(canonicalJson(o), expected);
  t.is(canonicalJson({ n: o }), `{"n":${expected}}`, 'in a nested object');
  t.is(canonicalJson([o]), `[${expected}]`, 'in a list');
  t.is(canonicalJson({ '4294967295': 1, '1x': 2 }), '{"1x":2,"4294967295":1}', '2^32 − 1 is not an index');
  t.is(canonicalJson({ '4294967294': 1, '1x': 2 }), '{"4294967294":1,"1x":2}', '2^32 − 2 is');
});

test('the key orders kept stay right past their bound: many shapes sharing a first key, of several lengths, and the empty object', (t) => {
  const shapes: Record<string, unknown>[] = [
    {},
    { '': 1 },
    { k: 1 },
    { k: 1, b: 2 },
    { k: 1, b: 2, a: 3 },
    { k: 1, a: 3, b: 2 },
    { k: 1, b: 2, a: 3, '0': 4 },
  ];
  for (let i = 0; i < 300; i++) shapes.push({ k: i, [`x${i}`]: i, [`${i}`]: -i }, { [`y${i}`]: i, k: 0 });
  shapes.push({ k: 1 }, { k: 1, b: 2 }, {});
  for (let round = 0; round < 2; round++) {
    for (const o of shapes) t.is(canonicalJson({ o }), sortedAll({ o }));
  }
  t.is(
    canonicalJson({ a: {}, b: { k: 1, b: 2 }, c: { k: 1, b: 2, a: 3 } }),
    '{"a":{},"b":{"b":2,"k":1},"c":{"a":3,"b":2,"k":1}}',
  );
});

test('changedJson is the canonical JSON of an element, also past its bound of kept elements', (t) => {
  const xs = Array.from({ length: 1100 }, (_, i) => ({ z: i, a: [{ d: i, c: 'ほ' }], [`${i % 7}`]: null }));
  for (let round = 0; round < 2; round++) {
    for (const x of xs) t.is(changedJson(x), sortedAll(x));
  }
  t.is(changedJson(xs[3]), '{"3":null,"a":[{"c":"ほ","d":3}],"z":3}');
  t.is(changedJson(5), '5');
  t.is(changedJson(undefined), 'null');
});

test("stateHash is the sha256 of the sorted fields with each list given by the hash of its elements' digests", (t) => {
  const s = as({ ...freshPlayer(), name: 'ほしの "子"' });
  t.is(stateHash(s), expectedHash(s));
  t.true(hashedText(s).includes(`"friends":#${EMPTY_HEX}`), "an empty list's hash is the sha256 of nothing");
  t.true(hashedText(s).includes(`"presents":#${listHex(s.presents)}`));
  t.false(hashedText(s).includes('missionLogs'), 'a later field at its default is left out');
  const withItems = as({ ...s, items: [{ itemId: 1, amount: 2 }], advSeen: [3, 1, 2] });
  t.is(stateHash(withItems), expectedHash(withItems));
  t.not(stateHash(withItems), stateHash(s));
});

test('a later field counts only off its group default; a field with no default always counts; what JSON leaves out never does', (t) => {
  const s = freshPlayer();
  const h = stateHash(s);
  t.is(h, expectedHash(s));
  const { missionLogs: _m, advSeen: _a, ageBracket: _b, ...without } = s;
  t.is(stateHash(as(without)), h, 'without the later fields');
  t.is(stateHash(as({ ...s, missionLogs: [], advSeen: [], ageBracket: null })), h, 'at their defaults, in new values');
  const off: Array<[string, object]> = [
    ['a later list not empty', { advSeen: [1] }],
    ['a later list of a longer length', { advSeen: [1, 2] }],
    ['its order', { advSeen: [2, 1] }],
    ['an element of a later list', { missionLogs: [{ missionId: 1, period: 0, base: 0, claimedAt: null }] }],
    ['a later field that is not a list', { ageBracket: 3 }],
    ['an empty list where the default is not a list', { ageBracket: [] }],
    ['an empty object where the default is null', { ageBracket: {} }],
    ['a field with no default', { zExtra: 1 }],
    ['a list field with no default, empty', { zExtra: [] }],
    ['a list field with no default', { zExtra: [0] }],
    ['a field from the start at null', { gold: null }],
  ];
  const seen = new Set([h]);
  for (const [what, change] of off) {
    const changed = as({ ...s, ...change });
    t.is(stateHash(changed), expectedHash(changed), what);
    t.false(seen.has(stateHash(changed)), `${what} changes the hash`);
    seen.add(stateHash(changed));
  }
  // Undefined, a function or a symbol is left out, whatever the field.
  const { gold: _g, ...noGold } = s;
  const hNoGold = stateHash(as(noGold));
  t.is(hNoGold, expectedHash(noGold));
  t.not(hNoGold, h);
  t.is(stateHash(as({ ...s, gold: undefined })), hNoGold, 'a field from the start, undefined');
  t.is(stateHash(as({ ...s, gold: () => 1 })), hNoGold, 'a field from the start, a function');
  t.is(stateHash(as({ ...s, gold: Symbol('g') })), hNoGold, 'a field from the start, a symbol');
  t.is(stateHash(as({ ...s, ageBracket: undefined })), h, 'a later field, undefined');
  t.is(
    stateHash(as({ ...s, zExtra: undefined, zFn: () => 1, zSym: Symbol('z') })),
    h,
    'fields with no default, left out',
  );
});

test("stateHash is the same with a `before` hint as without, whatever the lists' edits and the fields' changes, also past the bound of kept elements", (t) => {
  const s0 = freshPlayer();
  t.is(stateHash(s0), expectedHash(s0));
  const p = s0.presents;
  const b = s0.battleParties;
  const [b0, b1, ...bRest] = b;
  if (!b0 || !b1 || p.length < 5) return t.fail('the fresh player has fewer presents or parties');
  const big = Array.from({ length: 1100 }, (_, i) => i * 3);
  const edits: Array<[string, object]> = [
    ['the first element removed', { presents: p.slice(1) }],
    ['a middle element removed', { presents: [...p.slice(0, 2), ...p.slice(3)] }],
    ['the last element removed', { presents: p.slice(0, -1) }],
    ['one inserted at the front', { presents: [{ ...p[0], managedPresentId: 1 }, ...p] }],
    ['one appended', { presents: [...p, { ...p[0], managedPresentId: 2 }] }],
    ['one changed in place', { battleParties: [b0, { ...b1, name: 'ほし' }, ...bRest] }],
    ['two swapped', { battleParties: [b1, b0, ...bRest] }],
    ['reversed', { battleParties: [...b].reverse() }],
    ['emptied', { presents: [] }],
    ['a later list grown past the kept elements', { advSeen: big }],
    // The hint's hashed parts lent field by field: a changed scalar or part, one left out, another key order.
    ['a number changed', { gold: s0.gold + 1 }],
    ['a part changed', { account: { ...s0.account, sessionEpoch: s0.account.sessionEpoch + 1 } }],
    ['a field left out', { gold: undefined }],
    ['a field added (another key order)', { zAdded: 1 }],
  ];
  for (const [what, change] of edits) {
    const s1 = as({ ...s0, ...change });
    const hinted = stateHash(s1, s0);
    t.is(hinted, expectedHash(s1), what);
    t.is(stateHash(freshLists(s1)), hinted, `${what}: without the hint`);
    t.not(hinted, stateHash(s0), `${what}: changes the hash`);
  }
  // From a big list to another with most elements still there, and many new ones.
  const s1 = as({ ...s0, advSeen: big });
  stateHash(s1);
  const s2 = as({
    ...s1,
    advSeen: [...big.slice(0, 500).map((x) => x + 1), ...big.slice(500, 1000), ...big.slice(1001), 7, 8],
  });
  t.is(stateHash(s2, s1), expectedHash(s2));
  // Hints that are not this state's predecessor: another player, a state whose lists were never hashed, one with no lists.
  const other = freshPlayer({ playerId: 2, seed: 'other' });
  const s3 = as({ ...s0, presents: [...p.slice(1), ...other.presents] });
  t.is(stateHash(s3, other), expectedHash(s3));
  const s4 = as({ ...s0, presents: p.slice(2) });
  t.is(stateHash(s4, freshLists(s0)), expectedHash(s4));
  const s5 = as({ ...s0, presents: p.slice(3) });
  t.is(stateHash(s5, as({ presents: 1, battleParties: { length: 2 } })), expectedHash(s5));
  t.is(stateHash(s5, s5), expectedHash(s5));
});

test('a field the log began with is hashed even at its group default (so the hashes old entries recorded still match)', (t) => {
  const withDefaults = [...FROM_THE_START].filter((k) => k in defaults);
  t.true(
    withDefaults.includes('battleParties') && withDefaults.includes('townLayout'),
    'fields of both kinds are among them',
  );
  for (const k of withDefaults) {
    const s = as({ ...freshPlayer({ playerId: 7, seed: 'd' }), [k]: defaults[k] });
    const without = as(Object.fromEntries(Object.entries(s).filter(([key]) => key !== k)));
    t.is(stateHash(s), expectedHash(s), k);
    t.not(stateHash(s), stateHash(without), `${k} at its default is part of the hash`);
  }
});
