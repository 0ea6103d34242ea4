// Checks an answer against its codec strictly: every field must be declared and
// of its declared type. io-ts's own `is` lets undeclared fields through, so the
// codec is walked here alongside the value. Used by the tests (every answer of
// the HTTP suite) and, behind CHECK_ANSWERS, by a development server.
import type * as t from 'io-ts';

interface Node {
  readonly _tag?: string;
  readonly name: string;
  readonly is: (u: unknown) => boolean;
}
const node = (c: t.Mixed): Node & Record<string, unknown> => c as unknown as Node & Record<string, unknown>;

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

/** The props an object codec declares (required and optional), through intersections, exact and refinement wrappers; null when not an object codec. */
const propsOf = (c: t.Mixed): { required: Record<string, t.Mixed>; optional: Record<string, t.Mixed> } | null => {
  const n = node(c);
  switch (n._tag) {
    case 'InterfaceType':
    case 'StrictType':
      return { required: n['props'] as Record<string, t.Mixed>, optional: {} };
    case 'PartialType':
      return { required: {}, optional: n['props'] as Record<string, t.Mixed> };
    case 'ExactType':
    case 'RefinementType':
    case 'ReadonlyType':
      return propsOf(n['type'] as t.Mixed);
    case 'IntersectionType': {
      const out = { required: {} as Record<string, t.Mixed>, optional: {} as Record<string, t.Mixed> };
      for (const part of n['types'] as t.Mixed[]) {
        const p = propsOf(part);
        if (!p) return null;
        Object.assign(out.required, p.required);
        for (const [k, v] of Object.entries(p.optional)) if (!(k in out.required)) out.optional[k] = v;
      }
      // A key required by one part and optional in another is required (intersection).
      for (const k of Object.keys(out.required)) delete out.optional[k];
      return out;
    }
    default:
      return null;
  }
};

/**
 * The problems of `value` against `codec`, each `path: what`; empty when the value
 * is exactly what the codec declares. A key in both an own part and an optional
 * part of an intersection is checked against each (both must hold).
 */
export const answerProblems = (codec: t.Mixed, value: unknown, path = '(answer)'): string[] => {
  const n = node(codec);
  switch (n._tag) {
    case 'UnknownType':
      return [`${path}: declared as unknown`];
    case 'ExactType':
    case 'ReadonlyType':
      return answerProblems(n['type'] as t.Mixed, value, path);
    case 'RefinementType': {
      const inner = answerProblems(n['type'] as t.Mixed, value, path);
      return inner.length > 0 || codec.is(value) ? inner : [`${path}: is not ${n.name}`];
    }
    case 'ArrayType':
    case 'ReadonlyArrayType': {
      if (!Array.isArray(value)) return [`${path}: must be an array (${n.name})`];
      const out: string[] = [];
      value.forEach((v, i) => {
        if (out.length < 20) out.push(...answerProblems(n['type'] as t.Mixed, v, `${path}.${i}`));
      });
      return out;
    }
    case 'DictionaryType': {
      if (!isPlainObject(value)) return [`${path}: must be an object (${n.name})`];
      return Object.entries(value).flatMap(([k, v]) => answerProblems(n['codomain'] as t.Mixed, v, `${path}.${k}`));
    }
    case 'UnionType': {
      const members = n['types'] as t.Mixed[];
      let best: string[] | null = null;
      for (const m of members) {
        const p = answerProblems(m, value, path);
        if (p.length === 0) return [];
        if (best === null || p.length < best.length) best = p;
      }
      return best ?? [`${path}: matches no member of ${n.name}`];
    }
    case 'InterfaceType':
    case 'StrictType':
    case 'PartialType':
    case 'IntersectionType': {
      const props = propsOf(codec);
      if (!props) {
        // An intersection of non-object parts: each part must hold.
        return (n['types'] as t.Mixed[]).flatMap((part) => answerProblems(part, value, path));
      }
      if (!isPlainObject(value)) return [`${path}: must be an object (${n.name})`];
      const out: string[] = [];
      for (const [k, c] of Object.entries(props.required)) {
        if (!(k in value)) out.push(`${path}.${k}: missing`);
        else out.push(...answerProblems(c, value[k], `${path}.${k}`));
      }
      for (const [k, c] of Object.entries(props.optional)) {
        if (k in value && value[k] !== undefined) out.push(...answerProblems(c, value[k], `${path}.${k}`));
      }
      for (const k of Object.keys(value)) {
        if (!(k in props.required) && !(k in props.optional)) out.push(`${path}.${k}: not declared`);
      }
      return out;
    }
    default:
      return codec.is(value) ? [] : [`${path}: is not ${n.name} (${JSON.stringify(value)?.slice(0, 80)})`];
  }
};

/** Whether a codec anywhere declares `unknown` (a response must declare every part). */
export const unknownPaths = (codec: t.Mixed, path = '(answer)'): string[] => {
  const n = node(codec);
  switch (n._tag) {
    case 'UnknownType':
    case 'AnyType':
    case 'UnknownRecordType':
    case 'UnknownArrayType':
    case 'AnyDictionaryType':
    case 'AnyArrayType':
    case 'ObjectType':
    case 'FunctionType':
      return [path];
    case 'ExactType':
    case 'RefinementType':
    case 'ReadonlyType':
      return unknownPaths(n['type'] as t.Mixed, path);
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return unknownPaths(n['type'] as t.Mixed, `${path}[]`);
    case 'DictionaryType':
      return unknownPaths(n['codomain'] as t.Mixed, `${path}{}`);
    case 'UnionType':
    case 'IntersectionType':
    case 'TupleType':
      return (n['types'] as t.Mixed[]).flatMap((m) => unknownPaths(m, path));
    case 'InterfaceType':
    case 'StrictType':
    case 'PartialType':
      return Object.entries(n['props'] as Record<string, t.Mixed>).flatMap(([k, c]) => unknownPaths(c, `${path}.${k}`));
    default:
      return [];
  }
};
