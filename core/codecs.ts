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

/** A codec that carries a description for the OpenAPI document (json-schema.ts shows it). */
export type Described<C extends t.Mixed> = t.RefinementC<C> & { readonly description: string };

/**
 * `codec` with a description for readers of the OpenAPI document (what -1 means, what
 * a flag says): a refinement that refuses nothing, so it decodes, encodes, checks and
 * types exactly as `codec`; only the document changes.
 */
export const described = <C extends t.Mixed>(codec: C, description: string): Described<C> =>
  Object.assign(
    t.refinement(codec, () => true, codec.name),
    { description },
  );

/** The description `described` gave a codec, if any. */
export const descriptionOf = (codec: t.Mixed): string | undefined => {
  const d: unknown = (codec as t.Mixed & { readonly description?: unknown }).description;
  return codec instanceof t.RefinementType && typeof d === 'string' ? d : undefined;
};

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
  constructor(
    name: string,
    readonly meanings: Readonly<Record<V, string>>,
  ) {
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
  get values(): V[] {
    return Object.keys(this.meanings)
      .map(Number)
      .sort((a, b) => a - b) as V[];
  }
}
/** An integer enum with the meaning of each value: `IntEnum('DrawType', { 1: 'single draw', 3: 'ten-draw' })`. */
export const IntEnum = <const M extends Readonly<Record<number, string>>>(
  name: string,
  meanings: M,
): IntEnumType<keyof M & number> =>
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

/**
 * Code points a name or text shown to people may not hold: controls (Cc; a line feed
 * only where `multiline`), format characters (Cf: bidi overrides and isolates,
 * zero-width spaces and joiners, the BOM, soft hyphen, tags), surrogates (Cs: a lone
 * half of a pair), private use (Co), line and paragraph separators (Zl, Zp) and the
 * noncharacters (U+FDD0-U+FDEF, U+xFFFE, U+xFFFF).
 */
const NOT_TEXT =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\u{FDD0}-\u{FDEF}\u{FFFE}\u{FFFF}\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}]/u;

/** Why a text shown to people is refused (undefined: it is fine), before it is normalised. */
export const textProblem = (s: string, multiline = false): string | undefined => {
  // A lone surrogate is a Cs code point under the u flag; one named here, for a clearer reason.
  if (/\p{Cs}/u.test(s)) return 'must be well-formed Unicode (it holds a lone surrogate)';
  const bad = NOT_TEXT.exec(multiline ? s.replace(/\n/g, ' ') : s);
  if (bad)
    return `must not contain control, format or private-use characters (it holds U+${(bad[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')})`;
  return undefined;
};

/** A text as it is kept: NFC-normalised, without leading or trailing white space (each line's, for multiline text). */
export const cleanText = (s: string, multiline = false): string => {
  const n = s.normalize('NFC');
  return multiline
    ? n
        .split('\n')
        .map((l) => l.trim())
        .join('\n')
        .trim()
    : n.trim();
};

/**
 * A name or text shown to people (player and party names, present titles and
 * messages): well-formed Unicode with no control, format, surrogate or private-use
 * code point (textProblem), decoded NFC-normalised and trimmed, then `min` to `max`
 * code points long (so min 1: not empty, not only white space). A bad one is 102
 * naming the field. Master data narrows `max` where the rule is the game's
 * (player.nameMaxLength, battleParty/support nameMaxLength).
 */
export const DisplayText = (min: number, max: number, opts: { readonly multiline?: boolean } = {}) =>
  new t.Type<string, string, unknown>(
    // The schema walker reads the bounds from this name (adapters/http/json-schema.ts).
    `Text[${min}..${max}]`,
    (u): u is string =>
      typeof u === 'string' &&
      textProblem(u, opts.multiline) === undefined &&
      u === cleanText(u, opts.multiline) &&
      [...u].length >= min &&
      [...u].length <= max,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be a string');
      // Checked before normalising too: a raw string far too long is refused without the work.
      if (u.length > 4 * max + 64) return t.failure(u, c, `must be ${min} to ${max} characters long`);
      const problem = textProblem(u, opts.multiline);
      if (problem) return t.failure(u, c, problem);
      const clean = cleanText(u, opts.multiline);
      const length = [...clean].length;
      if (length < min || length > max)
        return t.failure(
          u,
          c,
          min > 0 && length === 0
            ? 'must not be empty or only white space'
            : `must be ${min} to ${max} characters long (after trimming)`,
        );
      return t.success(clean);
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
      const parts =
        typeof u === 'string'
          ? u === ''
            ? []
            : u.split(',')
          : Array.isArray(u)
            ? u
            : typeof u === 'number'
              ? [u]
              : undefined;
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
export interface IdAmount {
  readonly id: number;
  readonly amount: number;
}

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
    (u): u is IdAmount[] =>
      Array.isArray(u) &&
      u.every(
        (x: unknown) =>
          typeof x === 'object' && x !== null && PosInt.is((x as IdAmount).id) && NonNegInt.is((x as IdAmount).amount),
      ),
    (u, c) => {
      if (typeof u !== 'string')
        return t.failure(u, c, 'must be a string of id:n entries separated by commas, e.g. "1:2,3:4"');
      if (u === '') return t.success([]);
      const parts = u.split(',');
      if (parts.length > max) return t.failure(u, c, `must list at most ${max} entries`);
      const out: IdAmount[] = [];
      for (const [i, p] of parts.entries()) {
        const m = ID_AMOUNT.exec(p);
        const id = m ? Number(m[1]) : NaN;
        const amount = m ? Number(m[2]) : NaN;
        if (!m || !Number.isSafeInteger(id) || id < 1 || !Number.isSafeInteger(amount)) {
          return t.failure(
            u,
            c,
            `entry ${i + 1} (${JSON.stringify(p.slice(0, 40))}) must be id:n, a positive integer id and a non-negative integer n`,
          );
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
  return new t.ExactType(
    io.name,
    io.is,
    fieldsValidate(required, {}) as t.Validate<unknown, t.TypeOf<t.TypeC<P>>>,
    io.encode,
    io.type,
  );
};
export const objWithOptional = <P extends t.Props, O extends t.Props>(
  required: P,
  optional: O,
  name?: string,
): t.ExactC<t.IntersectionC<[t.TypeC<P>, t.PartialC<O>]>> => {
  const io = t.exact(t.intersection([t.type(required), t.partial(optional)]), name);
  return new t.ExactType(
    io.name,
    io.is,
    fieldsValidate(required, optional) as t.Validate<unknown, t.TypeOf<typeof io>>,
    io.encode,
    io.type,
  );
};

/**
 * Whether a context step names a member of an intersection or a union rather than
 * a field. t.exact(t.intersection(...)) validates its members under the exact
 * codec's own context entry: there the step is a member when its codec is one of
 * the intersection's (a field's key under the same wrapper is a field).
 */
const memberStep = (parent: unknown, step: unknown): boolean => {
  const p = parent as { _tag?: string; type?: unknown; types?: ReadonlyArray<unknown> } | undefined;
  if (p?._tag === 'IntersectionType' || p?._tag === 'UnionType') return true;
  let c = p;
  while (c && (c._tag === 'ExactType' || c._tag === 'ReadonlyType' || c._tag === 'RefinementType'))
    c = c.type as typeof c;
  return (c?._tag === 'IntersectionType' || c?._tag === 'UnionType') && (c.types ?? []).includes(step);
};

/** The path of a failed validation, as `items.0.amount` (intersection and union members are not path steps). */
export const pathOf = (e: t.ValidationError, whole = '(body)'): string => {
  const keys: string[] = [];
  for (let i = 1; i < e.context.length; i++) {
    const key = e.context[i]?.key ?? '';
    if (key === '' || memberStep(e.context[i - 1]?.type, e.context[i]?.type)) continue;
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
  return gameError('INVALID_PARAMETERS', {
    field,
    reason: first.message ?? `must be ${first.context[first.context.length - 1]?.type.name ?? 'valid'}`,
  });
};
