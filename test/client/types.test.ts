// The typed client's types, checked by the compiler (`npx tsc --noEmit -p .`): every
// operation's answer type is free of `unknown` all the way down, the client has one
// method per operation with the request its codec takes, and the run-time side makes
// exactly those methods from the table.
import test from 'ava';
import {
  createClient,
  type AnswerOf,
  type ArgsOf,
  type HoshiClient,
  type OperationName,
  type RequestOf,
  type ResponseOf,
} from '../../client/index.js';
import { TYPED_OPERATIONS } from '../../core/operations/table.js';

// ---- compile-time helpers ----
/** True when T is exactly true (fails to compile otherwise where asserted). */
const assertType = <T extends true>(): T | undefined => undefined;
type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type Not<B extends boolean> = B extends true ? false : true;

/** Whether `unknown` (or `any`) appears anywhere in T: a field, an array's items, a record's values, a union member. */
type HasUnknown<T> = unknown extends T
  ? true
  : T extends ReadonlyArray<infer E>
    ? HasUnknown<E>
    : T extends object
      ? true extends { [K in keyof T]-?: HasUnknown<T[K]> }[keyof T]
        ? true
        : false
      : false;

// The helper itself: it finds unknown where it hides.
assertType<HasUnknown<unknown>>();
assertType<HasUnknown<{ a: { b: unknown[] } }>>();
assertType<HasUnknown<Record<string, unknown>>>();
assertType<HasUnknown<{ a?: number | { c: unknown } }>>();
assertType<Not<HasUnknown<{ a: number; b: Array<{ c: string | null }>; d?: boolean }>>>();

/** The operations whose answer type still has an unknown somewhere: none. */
export type UntypedAnswers = {
  [N in OperationName]: HasUnknown<ResponseOf<N>> extends true ? N : never;
}[OperationName];
assertType<Equals<UntypedAnswers, never>>();

// The answers the client's users read most, named.
assertType<Not<HasUnknown<ResponseOf<'getAllPlayer'>>>>();
assertType<Not<HasUnknown<AnswerOf<'drawPlayerGacha'>>>>();
assertType<Not<HasUnknown<AnswerOf<'getPlayerPresent'>>>>();
assertType<Not<HasUnknown<AnswerOf<'completePlayerQuestLog'>>>>();

// Requests: a method needs its request exactly when the operation has a required field.
assertType<Equals<ArgsOf<'getAllPlayer'>[0], RequestOf<'getAllPlayer'> | undefined>>();
assertType<Equals<ArgsOf<'drawPlayerGacha'>[0], RequestOf<'drawPlayerGacha'>>>();
assertType<Equals<RequestOf<'drawPlayerGacha'>['drawType'], 1 | 2 | 3>>();
assertType<Equals<Parameters<HoshiClient['drawPlayerGacha']>[0], RequestOf<'drawPlayerGacha'>>>();

test('the client has one method per operation of the table, and nothing of the table is missing', (t) => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
  const names: ReadonlyArray<OperationName> = TYPED_OPERATIONS.map((o) => o.name);
  t.is(new Set(names).size, names.length);
  for (const name of names) t.is(typeof client[name], 'function', name);
  t.is(client.sessionId, undefined);
});
