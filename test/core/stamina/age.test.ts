// The age bracket (age/set, docs/rules/original.md, The age bracket): the bracket and its
// monthly paid-gem limit kept, only ever moving to an older bracket; what each refusal names.
import test from 'ava';
import { fails, freshPlayer, ok, master } from '../../_support/core.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('age/set keeps the bracket and its monthly paid-gem limit; the same again changes nothing; it only moves to an older bracket', (t) => {
  const s = freshPlayer();
  t.is(s.ageBracket, null);
  const r = ok(t, 'setPlayerAge', s, { age: 1 });
  t.deepEqual(r.response, { age: 1, name: 'Under 16', monthlyPaidGemLimit: 5000 });
  t.is(r.state.ageBracket, 1);
  t.is(ok(t, 'setPlayerAge', r.state, { age: 1 }).state, r.state);
  const older = ok(t, 'setPlayerAge', r.state, { age: 3 });
  t.like(older.response, { age: 3, monthlyPaidGemLimit: null });
  fails(t, 'STATE_CONFLICT', 'setPlayerAge', older.state, { age: 2 });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerAge', s, { age: 9 });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'setPlayerAge', s, {});
});

test('age: a code that is no bracket is 102 naming age and listing the bracket codes', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'setPlayerAge', freshPlayer(), { age: 9 });
  t.like(e, { field: 'age' });
  for (const code of m.ageBracket.keys())
    t.regex(reasonOf(e), new RegExp(`\\b${code}\\b`), `bracket ${code} is listed`);
});

test('age: a younger bracket than the one set is 317, and the reason names the bracket the player has', (t) => {
  const s = ok(t, 'setPlayerAge', freshPlayer(), { age: 3 }).state;
  const e = fails(t, 'STATE_CONFLICT', 'setPlayerAge', s, { age: 1 });
  t.regex(reasonOf(e), new RegExp(m.ageBracket.get(3)!.name));
});
