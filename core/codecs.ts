// Shared io-ts codecs for requests and master data. Requests accept integers as
// numbers or numeric strings (WIRE.md); everything else that is not an integer fails.
import * as t from 'io-ts';
import { gameError, type GameError } from './errors.js';

const INT_TEXT = /^-?\d{1,16}$/;

/** A safe integer given as a number or a numeric string. */
export const Int = new t.Type<number, number, unknown>(
  'Int',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u),
  (u, c) => {
    if (typeof u === 'number' && Number.isSafeInteger(u)) return t.success(u);
    if (typeof u === 'string' && INT_TEXT.test(u)) {
      const n = Number(u);
      if (Number.isSafeInteger(n)) return t.success(n);
    }
    return t.failure(u, c, 'must be an integer');
  },
  (n) => n,
);

const refineInt = (name: string, ok: (n: number) => boolean, why: string) =>
  new t.Type<number, number, unknown>(
    name,
    (u): u is number => Int.is(u) && ok(u),
    (u, c) => {
      const r = Int.validate(u, c);
      return r._tag === 'Left' || ok(r.right) ? r : t.failure(u, c, why);
    },
    (n) => n,
  );

/** An integer ≥ 1 (ids and amounts). */
export const PosInt = refineInt('PosInt', (n) => n >= 1, 'must be a positive integer');
/** An integer ≥ 0. */
export const NonNegInt = refineInt('NonNegInt', (n) => n >= 0, 'must not be negative');
/** An integer between lo and hi inclusive. */
export const IntRange = (lo: number, hi: number) =>
  refineInt(`Int[${lo}..${hi}]`, (n) => n >= lo && n <= hi, `must be between ${lo} and ${hi}`);
/**
 * An integer from a closed set, each value with its meaning. It decodes like Int
 * (a number or a numeric string) and refuses any value not listed; the OpenAPI
 * document shows the values as an `enum` with their meanings, so they are said
 * once, here, not only in the reducer.
 */
export class IntEnumType<V extends number> extends t.Type<V, number, unknown> {
  readonly _tag = 'IntEnumType' as const;
  constructor(name: string, readonly meanings: Readonly<Record<V, string>>) {
    const values = Object.keys(meanings).map(Number);
    const listed = (n: number): n is V => values.includes(n);
    super(
      name,
      (u): u is V => Int.is(u) && listed(u),
      (u, c) => {
        const r = Int.validate(u, c);
        if (r._tag === 'Left') return r;
        return listed(r.right) ? t.success(r.right) : t.failure(u, c, `must be one of ${values.join(', ')}`);
      },
      (n) => n,
    );
  }
  /** The values, in ascending order. */
  get values(): V[] { return Object.keys(this.meanings).map(Number).sort((a, b) => a - b) as V[]; }
}
/** An integer enum with the meaning of each value: `IntEnum('DrawType', { 1: 'single draw', 3: 'ten-draw' })`. */
export const IntEnum = <const M extends Readonly<Record<number, string>>>(name: string, meanings: M): IntEnumType<keyof M & number> =>
  new IntEnumType<keyof M & number>(name, meanings as unknown as Readonly<Record<keyof M & number, string>>);
/** An amount in a request: 1 … max. */
export const Amount = (max: number) => IntRange(1, max);

/** A string of bounded length (UTF-16 units), with no control characters. */
export const Text = (min: number, max: number) =>
  new t.Type<string, string, unknown>(
    `Text[${min}..${max}]`,
    (u): u is string => typeof u === 'string' && u.length >= min && u.length <= max,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be a string');
      if (u.length < min || u.length > max) return t.failure(u, c, `must be ${min} to ${max} characters long`);
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(u)) return t.failure(u, c, 'must not contain control characters');
      return t.success(u);
    },
    (s) => s,
  );

/** A boolean, also as 0/1 (the original client sends flags as integers). */
export const Flag = new t.Type<boolean, boolean, unknown>(
  'Flag',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => {
    if (typeof u === 'boolean') return t.success(u);
    if (u === 0 || u === 1 || u === '0' || u === '1') return t.success(u === 1 || u === '1');
    if (u === 'true' || u === 'false') return t.success(u === 'true');
    return t.failure(u, c, 'must be a boolean');
  },
  (b) => b,
);

/** Comma-separated ids in a query (`1,2,3`), or a JSON array of ids; at most `max`. */
export const IdList = (max: number) =>
  new t.Type<number[], number[], unknown>(
    'IdList',
    (u): u is number[] => Array.isArray(u) && u.every((x) => PosInt.is(x)),
    (u, c) => {
      const parts = typeof u === 'string' ? (u === '' ? [] : u.split(',')) : Array.isArray(u) ? u : typeof u === 'number' ? [u] : undefined;
      if (!parts) return t.failure(u, c, 'must be a list of ids');
      if (parts.length > max) return t.failure(u, c, `must list at most ${max} ids`);
      const out: number[] = [];
      for (const p of parts) {
        const r = PosInt.decode(p);
        if (r._tag === 'Left') return t.failure(u, c, 'must be a list of positive integer ids');
        out.push(r.right);
      }
      return t.success(out);
    },
    (xs) => xs,
  );

/** One `id:n` entry of an IdAmountList. */
export interface IdAmount { readonly id: number; readonly amount: number }

const ID_AMOUNT = /^(\d{1,16}):(\d{1,16})$/;

/**
 * The original clients' `"id:n,id:n"` lists (quest_log skillExps, dropItems,
 * killedEnemies, weaponSkillExps): each entry an id ≥ 1 and an amount ≥ 0, the
 * empty string the empty list, at most `max` entries. A bad entry fails naming it,
 * so the client sees 102 with the field and the entry.
 */
export const IdAmountList = (max: number) =>
  new t.Type<IdAmount[], string, unknown>(
    'IdAmountList',
    (u): u is IdAmount[] => Array.isArray(u) && u.every((x: unknown) => typeof x === 'object' && x !== null && PosInt.is((x as IdAmount).id) && NonNegInt.is((x as IdAmount).amount)),
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be a string of id:n entries separated by commas, e.g. "1:2,3:4"');
      if (u === '') return t.success([]);
      const parts = u.split(',');
      if (parts.length > max) return t.failure(u, c, `must list at most ${max} entries`);
      const out: IdAmount[] = [];
      for (const [i, p] of parts.entries()) {
        const m = ID_AMOUNT.exec(p);
        const id = m ? Number(m[1]) : NaN;
        const amount = m ? Number(m[2]) : NaN;
        if (!m || !Number.isSafeInteger(id) || id < 1 || !Number.isSafeInteger(amount)) {
          return t.failure(u, c, `entry ${i + 1} (${JSON.stringify(p.slice(0, 40))}) must be id:n, a positive integer id and a non-negative integer n`);
        }
        out.push({ id, amount });
      }
      return t.success(out);
    },
    (xs) => xs.map((x) => `${x.id}:${x.amount}`).join(','),
  );

/**
 * Validates an object field by field and keeps only the known fields; stops at the
 * first failure (only the first reaches the client). The same result and first
 * error as io-ts's exact type or intersection, at a fraction of the cost (every
 * request goes through one).
 */
const fieldsValidate = (required: t.Props, optional: t.Props): t.Validate<unknown, Record<string, unknown>> => {
  const req = Object.entries(required);
  const opt = Object.entries(optional);
  return (u, c) => {
    if (Object.prototype.toString.call(u) !== '[object Object]') return t.failure(u, c);
    const o = u as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, codec] of req) {
      const v = o[k];
      const r = codec.validate(v, t.appendContext(c, k, codec, v));
      if (r._tag === 'Left') return r;
      out[k] = r.right;
    }
    for (const [k, codec] of opt) {
      const v = o[k];
      if (v === undefined) continue;
      const r = codec.validate(v, t.appendContext(c, k, codec, v));
      if (r._tag === 'Left') return r;
      out[k] = r.right;
    }
    return t.success(out);
  };
};

/** An exact object codec: unknown fields are dropped, so a codec is the whole request type. */
export const obj = <P extends t.Props>(required: P, name?: string): t.ExactC<t.TypeC<P>> => {
  const io = t.exact(t.type(required), name);
  return new t.ExactType(io.name, io.is, fieldsValidate(required, {}) as t.Validate<unknown, t.TypeOf<t.TypeC<P>>>, io.encode, io.type);
};
export const objWithOptional = <P extends t.Props, O extends t.Props>(required: P, optional: O, name?: string): t.ExactC<t.IntersectionC<[t.TypeC<P>, t.PartialC<O>]>> => {
  const io = t.exact(t.intersection([t.type(required), t.partial(optional)]), name);
  return new t.ExactType(io.name, io.is, fieldsValidate(required, optional) as t.Validate<unknown, t.TypeOf<typeof io>>, io.encode, io.type);
};

/** The path of a failed validation, as `items.0.amount` (intersection and union members are not path steps). */
export const pathOf = (e: t.ValidationError, whole = '(body)'): string => {
  const keys: string[] = [];
  for (let i = 1; i < e.context.length; i++) {
    const parent = e.context[i - 1]?.type as { _tag?: string } | undefined;
    const key = e.context[i]?.key ?? '';
    if (key === '' || parent?._tag === 'IntersectionType' || parent?._tag === 'UnionType') continue;
    keys.push(key);
  }
  return keys.join('.') || whole;
};

/** Turns an io-ts failure into the request error a client sees: 103 when missing, else 102. */
export const requestError = (errors: t.Errors): GameError => {
  const first = errors[0];
  if (!first) return gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'is not valid' });
  const field = pathOf(first);
  if (first.value === undefined) return gameError('INSUFFICIENT_PARAMETERS', { field });
  return gameError('INVALID_PARAMETERS', { field, reason: first.message ?? `must be ${first.context[first.context.length - 1]?.type.name ?? 'valid'}` });
};
