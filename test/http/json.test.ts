// answerJson keeps the JSON of shared views by identity; whatever it reuses, it
// must give exactly what JSON.stringify gives.
import test from 'ava';
import fc from 'fast-check';
import { answerJson, setAnswerCacheBytes } from '../../adapters/http/json.js';
import { recordJson } from '../../adapters/storage/kept-answer-json.js';
import { freshPlayer, ok, receiveAll } from '../_support/core.js';
import { common, fullView, isCommon, isShared, shared } from '../../core/view.js';
import { loadMaster } from '../../adapters/master/load.js';

/** The default bound (ANSWER_CACHE_MB's default, 0), restored after a test that sets another. */
const DEFAULT_BOUND = 0;
const MB16 = 16 * 1024 * 1024;

/** Marks some of the objects in a value shared (a player's views) or common (master data's), as the core does. */
const markSome = (v: unknown, pick: () => number): void => {
  if (v === null || typeof v !== 'object') return;
  const k = pick();
  if (k === 1) shared(v);
  if (k === 2) common(v);
  for (const x of Object.values(v)) markSome(x, pick);
};

test('answerJson is JSON.stringify, for any body, also when parts are shared or common and seen before, whatever the bound', (t) => {
  t.teardown(() => setAnswerCacheBytes(DEFAULT_BOUND));
  for (const bytes of [0, MB16]) {
    setAnswerCacheBytes(bytes);
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 4 })),
        fc.infiniteStream(fc.integer({ min: 0, max: 2 })),
        (body, picks) => {
          const it = picks[Symbol.iterator]();
          markSome(body, () => it.next().value as number);
          const first = answerJson(body);
          return (
            first === JSON.stringify(body) &&
            answerJson(body) === first &&
            answerJson({ ...body, extra: body }) === JSON.stringify({ ...body, extra: body })
          );
        },
      ),
      { numRuns: 300 },
    );
  }
  t.pass();
});

test("with no answer cache (the default) a player's views go unmarked and unkept, with one they are marked; master data's common views are marked either way", (t) => {
  t.teardown(() => setAnswerCacheBytes(DEFAULT_BOUND));
  setAnswerCacheBytes(0);
  const unmarked = shared({ managedCharacterId: 1 });
  const list = shared([1, 2]);
  const rates = common({ rarity: 5, probability: 0.03 });
  t.false(isShared(unmarked));
  t.false(isShared(list));
  t.true(isShared(rates));
  t.true(isCommon(rates));
  t.false(isCommon(unmarked));
  setAnswerCacheBytes(MB16);
  const marked = shared({ managedCharacterId: 2 });
  t.true(isShared(marked));
  t.false(isCommon(marked), "a player's view is not common");
  t.true(isShared(shared([3])));
  t.deepEqual(Object.keys(marked), ['managedCharacterId'], 'the mark is no key');
});

test('answerJson with a head of members already written: the head first, then the body, as JSON.stringify of both; an empty head or body adds no comma', (t) => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 })),
      (headObject, body) => {
        // The head's keys are left out of the body, as the envelope's (apart) are.
        const rest = Object.fromEntries(Object.entries(body).filter(([k]) => !(k in headObject)));
        const head = JSON.stringify(headObject).slice(1, -1);
        const want = JSON.parse(JSON.stringify({ ...headObject, ...rest })) as unknown;
        const got = answerJson(rest, head);
        return JSON.stringify(JSON.parse(got)) === JSON.stringify(want) && got.startsWith(`{${head}`);
      },
    ),
  );
  t.is(answerJson({}, '"a":1'), '{"a":1}');
  t.is(answerJson({ b: 2 }, ''), '{"b":2}');
  t.is(answerJson({ b: 2, c: undefined }, '"a":1'), '{"a":1,"b":2}');
});

test('answerJson leaves out what JSON.stringify leaves out, and writes null in lists for it', (t) => {
  const body = {
    a: undefined,
    f: () => 1,
    list: shared([undefined, 1, 'x', { d: new Date(0) }]),
    d: new Date(5),
    n: null,
  };
  t.is(answerJson(body), JSON.stringify(body));
});

test("a player's whole view encodes the same before and after a draw shares most of its parts", (t) => {
  const master = loadMaster();
  const ctx = { master, now: Date.UTC(2026, 10, 21, 3) };
  let s = { ...receiveAll(t, freshPlayer()), gem: 99_999 };
  for (let i = 0; i < 3; i++) {
    const view = fullView(s, ctx);
    t.is(answerJson(view), JSON.stringify(view));
    t.is(answerJson(view), JSON.stringify(view));
    s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: `j${i}` }).state;
  }
});

test("whatever the cache's bound (none, or smaller than one answer), answers are JSON.stringify's", (t) => {
  const master = loadMaster();
  const ctx = { master, now: Date.UTC(2026, 10, 21, 3) };
  const s = receiveAll(t, freshPlayer());
  t.teardown(() => setAnswerCacheBytes(DEFAULT_BOUND));
  for (const bytes of [0, 64, 4096, MB16]) {
    setAnswerCacheBytes(bytes);
    const view = fullView(s, ctx);
    t.is(answerJson(view), JSON.stringify(view), `bound ${bytes}`);
    t.is(answerJson(view), JSON.stringify(view), `bound ${bytes}, again`);
  }
});

test("a keyed write's payload: PostgreSQL's record JSON is JSON.stringify's, and answerJson then writes the payload from it, with or without a head", (t) => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 })),
      fc.constantFrom(undefined, '', '"resultCode":0,"resultMessage":""'),
      fc.option(fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 2 }), { nil: undefined }),
      (payload, head, withheld) => {
        const want = answerJson(payload, head);
        const record = {
          requestHash: 'h',
          answer: { ok: payload },
          createdAt: 1_700_000_000_000,
          ...(withheld === undefined ? {} : { withheld }),
        };
        return recordJson(record) === JSON.stringify(record) && answerJson(payload, head) === want;
      },
    ),
  );
  const error = { requestHash: 'h', answer: { error: { code: 'NOT_FOUND' } }, createdAt: 1 };
  t.is(recordJson(error), JSON.stringify(error));
  // Taken, not encoded again: a payload changed after its record (which never happens: views
  // are never mutated) still answers as it was kept.
  const payload: Record<string, unknown> = { n: 1 };
  recordJson({ requestHash: 'h', answer: { ok: payload }, createdAt: 1 });
  payload['n'] = 2;
  t.is(answerJson(payload, '"resultCode":0'), '{"resultCode":0,"n":1}');
  t.is(answerJson({ n: 2 }, '"resultCode":0'), '{"resultCode":0,"n":2}', 'another object is encoded');
});
