// State copies. Every copy on a hot path goes through withFields, so states share
// one hidden class: V8 gives each object spread site its own, and helpers that meet
// more than four of them (tryGrant, the runner) fall off their fast path.
//
// The copy is one object literal naming every field in the codec's order, made
// once from the state codec (STATE_FIELDS): a field a group adds to the state is
// copied without a word here. A loop of assignments would share the hidden class
// too, but with keyed stores and properties outside the object; the literal is
// what a hand-written copy compiles to.
import { STATE_FIELDS, type PlayerState } from '../state.js';

const FIELDS = Object.keys(STATE_FIELDS);
for (const k of FIELDS)
  if (!/^[A-Za-z_$][\w$]*$/.test(k)) throw new Error(`state field ${JSON.stringify(k)} is not an identifier`);

/** A field-by-field copy in the codec's order (test/core/views-memo.test.ts checks it has every field). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- built once from the codec's own field names, checked above
const copy = new Function('s', `return { ${FIELDS.map((k) => `${k}: s.${k}`).join(', ')} };`) as (
  s: PlayerState,
) => PlayerState;

/** The state with some fields replaced (a new object; the given state is not changed). */
export const withFields = (s: PlayerState, fields: Partial<PlayerState>): PlayerState => Object.assign(copy(s), fields);
