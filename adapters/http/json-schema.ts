// The JSON-Schema walker: io-ts codecs (core/codecs.ts's refinements included, by name)
// turned into JSON Schema, inline or with named codecs as components referenced by $ref.
import type * as t from 'io-ts';
import { descriptionOf } from '../../core/codecs.js';

/** A JSON Schema, as built here and in the OpenAPI document. */
export type Schema = Record<string, unknown>;
interface Node {
  readonly _tag?: string;
  readonly name: string;
}
const node = (c: t.Mixed): Node & Record<string, unknown> => c as unknown as Node & Record<string, unknown>;

/** Combinators whose name is a type's own when it looks like an identifier (t.type({...}, 'PlayerView')). */
const NAMEABLE = new Set([
  'InterfaceType',
  'StrictType',
  'PartialType',
  'IntersectionType',
  'UnionType',
  'KeyofType',
  'IntEnumType',
  'ExactType',
  'ReadonlyType',
  'RefinementType',
  'RecursiveType',
]);
const IDENTIFIER = /^[A-Z][A-Za-z0-9_]*$/;
const REF = '#/components/schemas/';
/** A reference to a component of components.schemas. */
export const ref = (name: string): Schema => ({ $ref: `${REF}${name}` });

/** The codec under wrappers that keep its name: t.exact(X) and X are one component. */
export const core = (codec: t.Mixed): t.Mixed => {
  let c = codec;
  for (;;) {
    const n = node(c);
    const inner = n['type'] as t.Mixed | undefined;
    if ((n._tag === 'ExactType' || n._tag === 'ReadonlyType') && inner && node(inner).name === n.name) c = inner;
    else return c;
  }
};

/** Object schemas of an intersection merge into one; anything else stays a part of allOf. */
const mergeParts = (parts: Schema[]): Schema => {
  const objects = parts.filter(
    (p) => p['type'] === 'object' && p['properties'] && !p['additionalProperties'] && !p['description'],
  );
  const rest = parts
    .filter((p) => !objects.includes(p))
    .flatMap((p) => (Array.isArray(p['allOf']) && Object.keys(p).length === 1 ? (p['allOf'] as Schema[]) : [p]));
  const merged: Schema | null =
    objects.length === 0
      ? null
      : {
          type: 'object',
          properties: Object.assign({}, ...objects.map((p) => p['properties'] as object)) as Schema,
          required: [...new Set(objects.flatMap((p) => (p['required'] as string[] | undefined) ?? []))],
        };
  if (merged && (merged['required'] as string[]).length === 0) delete merged['required'];
  if (rest.length === 0 && merged) return merged;
  return { allOf: merged ? [...rest, merged] : rest };
};

/**
 * Walks io-ts codecs into JSON Schema. Without components every schema is inline
 * (schemaOf, for the operations reference and the request generator of the tests);
 * with them, named codecs become components referenced by $ref.
 */
export class SchemaWalker {
  /** components.schemas, by name. */
  readonly components: Record<string, Schema> = {};
  /** Names two different codecs carry (the second got a numeric suffix): a defect of the codecs. */
  readonly clashes: string[] = [];
  /** Where the walk met a codec it cannot describe (rendered `{}`, which a client types as unknown). */
  readonly untyped: string[] = [];
  private readonly names = new Map<t.Mixed, string>();

  constructor(
    private readonly withComponents: boolean,
    named: ReadonlyArray<readonly [t.Mixed, string]> = [],
  ) {
    for (const [codec, name] of named) this.register(codec, name);
  }

  /** The schema of a codec: a $ref when it is (or becomes) a component. */
  schema(codec: t.Mixed, at = '(root)'): Schema {
    // A described codec (core/codecs.ts described): its own schema, its description beside it.
    const said = descriptionOf(codec);
    if (said !== undefined) {
      const inner = this.schema(node(codec)['type'] as t.Mixed, at);
      const own = inner['description'];
      return { ...inner, description: typeof own === 'string' ? `${said} ${own}` : said };
    }
    const c = core(codec);
    const name = this.withComponents ? this.componentOf(c) : undefined;
    return name ? ref(name) : this.inline(c, at);
  }

  /** The schema of a codec spelled out at the top (its fields may still be $refs). */
  inline(codec: t.Mixed, at = '(root)'): Schema {
    const c = node(codec);
    const props = (p: Record<string, t.Mixed>) =>
      Object.fromEntries(Object.entries(p).map(([k, v]) => [k, this.schema(v, `${at}.${k}`)]));
    switch (c._tag) {
      case 'ExactType':
      case 'RefinementType':
      case 'ReadonlyType':
        return this.schema(c['type'] as t.Mixed, at);
      case 'RecursiveType':
        return this.schema(c['type'] as t.Mixed, at);
      case 'InterfaceType':
      case 'StrictType': {
        const p = c['props'] as Record<string, t.Mixed>;
        const required = Object.keys(p);
        return { type: 'object', properties: props(p), ...(required.length > 0 ? { required } : {}) };
      }
      case 'PartialType':
        return { type: 'object', properties: props(c['props'] as Record<string, t.Mixed>) };
      case 'IntersectionType':
        return mergeParts((c['types'] as t.Mixed[]).map((p) => this.schema(p, at)));
      case 'UnionType': {
        const members = c['types'] as t.Mixed[];
        const literals = members.map((m) => node(m)).filter((m) => m._tag === 'LiteralType');
        // A union of literals of one type is an enum.
        if (literals.length === members.length) {
          const values = literals.map((m) => m['value']);
          return { enum: values };
        }
        return { anyOf: members.map((m) => this.schema(m, at)) };
      }
      case 'ArrayType':
      case 'ReadonlyArrayType':
        return { type: 'array', items: this.schema(c['type'] as t.Mixed, `${at}[]`) };
      case 'DictionaryType':
        return { type: 'object', additionalProperties: this.schema(c['codomain'] as t.Mixed, `${at}{}`) };
      case 'LiteralType': {
        const v = c['value'];
        return v === null ? { type: 'null' } : { const: v };
      }
      case 'KeyofType':
        return { enum: Object.keys(c['keys'] as object) };
      case 'IntEnumType': {
        const meanings = c['meanings'] as Record<number, string>;
        const values = c['values'] as number[];
        return {
          type: 'integer',
          enum: values,
          description: `${values.map((v) => `${v}: ${meanings[v]}`).join('; ')}. Also as a numeric string.`,
          'x-enum-descriptions': values.map((v) => meanings[v]),
        };
      }
      case 'StringType':
        return { type: 'string' };
      case 'NumberType':
        return { type: 'number' };
      case 'BooleanType':
        return { type: 'boolean' };
      case 'NullType':
        return { type: 'null' };
      case 'UnknownType':
      case 'AnyType':
        this.untyped.push(at);
        return {};
      default:
        break;
    }
    // The project's own refinements (core/codecs.ts), by name.
    const n = c.name;
    let m: RegExpExecArray | null;
    if (n === 'Int') return { type: 'integer', description: 'an integer, or a string of one' };
    if (n === 'PosInt') return { type: 'integer', minimum: 1 };
    if (n === 'NonNegInt') return { type: 'integer', minimum: 0 };
    if ((m = /^Int\[(-?\d+)\.\.(-?\d+)\]$/.exec(n)))
      return { type: 'integer', minimum: Number(m[1]), maximum: Number(m[2]) };
    if ((m = /^Text\[(\d+)\.\.(\d+)\]$/.exec(n)))
      return { type: 'string', minLength: Number(m[1]), maxLength: Number(m[2]) };
    if (n === 'Flag') return { type: 'boolean', description: 'also 0 or 1' };
    if (n === 'IdList') return { type: 'string', description: 'comma-separated ids, e.g. 1,2,3' };
    if (n === 'Uuid') return { type: 'string', format: 'uuid' };
    if (n === 'AppVersion')
      return {
        type: 'string',
        pattern: '^\\d{1,6}(\\.\\d{1,6}){0,3}$',
        description: 'an app version: dot-separated integers, e.g. 1.0.3',
      };
    if (n === 'IdAmountList') {
      return {
        type: 'string',
        pattern: '^(\\d+:\\d+(,\\d+:\\d+)*)?$',
        description: '`id:n` entries joined by commas, e.g. "1:2,3:4" (id ≥ 1, n ≥ 0); "" for none',
      };
    }
    this.untyped.push(`${at} (${n})`);
    return {};
  }

  /** The component a codec is, registering it on first sight; undefined for an unnamed codec. */
  private componentOf(c: t.Mixed): string | undefined {
    const known = this.names.get(c);
    if (known !== undefined) return known;
    const n = node(c);
    if (!n._tag || !NAMEABLE.has(n._tag) || !IDENTIFIER.test(n.name)) return undefined;
    return this.register(c, n.name);
  }

  private register(c: t.Mixed, wanted: string): string {
    const known = this.names.get(c);
    if (known !== undefined) return known;
    let name = wanted;
    if (name in this.components) {
      // The same name on another codec: one component if they describe the same, else a clash.
      const mine = JSON.stringify(new SchemaWalker(false).inline(c));
      const theirs = [...this.names].find(([, v]) => v === name)?.[0];
      if (theirs && JSON.stringify(new SchemaWalker(false).inline(theirs)) === mine) {
        this.names.set(c, name);
        return name;
      }
      let i = 2;
      while (`${wanted}${i}` in this.components) i++;
      name = `${wanted}${i}`;
      this.clashes.push(name);
    }
    this.names.set(c, name);
    this.components[name] = {}; // a placeholder first, so a recursive codec refers to itself
    this.components[name] = this.inline(c, name);
    return name;
  }
}

/** JSON Schema of an io-ts codec, all inline (the operations reference and the tests' request generator read it). */
export const schemaOf = (codec: t.Mixed): Schema => new SchemaWalker(false).schema(codec);
