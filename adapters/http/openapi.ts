// The OpenAPI 3.1 document, generated from the operations table and the same io-ts
// codecs that validate requests: what is published is what is enforced.
import type * as t from 'io-ts';
import { OPERATIONS, isImplemented } from '../../core/operations/table.js';
import { RESULT_CODES, type ErrorName } from '../../core/errors.js';
import { HTTP_STATUS } from './status.js';

type Schema = Record<string, unknown>;
interface Tagged { readonly _tag?: string; readonly name: string }

/** JSON Schema of an io-ts codec (the combinators this project uses). */
export const schemaOf = (codec: t.Mixed): Schema => {
  const c = codec as unknown as Tagged & Record<string, unknown>;
  switch (c._tag) {
    case 'ExactType': case 'RefinementType': case 'ReadonlyType':
      return schemaOf(c['type'] as t.Mixed);
    case 'InterfaceType': case 'StrictType': {
      const props = c['props'] as Record<string, t.Mixed>;
      return { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaOf(v)])), required: Object.keys(props) };
    }
    case 'PartialType': {
      const props = c['props'] as Record<string, t.Mixed>;
      return { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaOf(v)])) };
    }
    case 'IntersectionType': {
      const parts = (c['types'] as t.Mixed[]).map(schemaOf);
      if (parts.every((p) => p['type'] === 'object')) {
        return {
          type: 'object',
          properties: Object.assign({}, ...parts.map((p) => p['properties'] as object)),
          required: parts.flatMap((p) => (p['required'] as string[] | undefined) ?? []),
        };
      }
      return { allOf: parts };
    }
    case 'UnionType': return { anyOf: (c['types'] as t.Mixed[]).map(schemaOf) };
    case 'ArrayType': case 'ReadonlyArrayType': return { type: 'array', items: schemaOf(c['type'] as t.Mixed) };
    case 'DictionaryType': return { type: 'object', additionalProperties: schemaOf(c['codomain'] as t.Mixed) };
    case 'LiteralType': return { const: c['value'] };
    case 'KeyofType': return { enum: Object.keys(c['keys'] as object) };
    case 'StringType': return { type: 'string' };
    case 'NumberType': return { type: 'number' };
    case 'BooleanType': return { type: 'boolean' };
    case 'NullType': return { type: 'null' };
    case 'UnknownType': return {};
    default: break;
  }
  const n = c.name;
  let m: RegExpExecArray | null;
  if (n === 'Int') return { type: 'integer', description: 'an integer, or a string of one' };
  if (n === 'PosInt') return { type: 'integer', minimum: 1 };
  if (n === 'NonNegInt') return { type: 'integer', minimum: 0 };
  if ((m = /^Int\[(-?\d+)\.\.(-?\d+)\]$/.exec(n))) return { type: 'integer', minimum: Number(m[1]), maximum: Number(m[2]) };
  if ((m = /^Text\[(\d+)\.\.(\d+)\]$/.exec(n))) return { type: 'string', minLength: Number(m[1]), maxLength: Number(m[2]) };
  if (n === 'Flag') return { type: 'boolean', description: 'also 0 or 1' };
  if (n === 'IdList') return { type: 'string', description: 'comma-separated ids, e.g. 1,2,3' };
  if (n === 'Uuid') return { type: 'string', format: 'uuid' };
  return {};
};

const COMMON: ReadonlyArray<ErrorName> = ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'INVALID_REQUEST_HASH', 'DB_ERROR', 'UNKNOWN_ERROR'];

const ENVELOPE: Schema = {
  type: 'object',
  properties: {
    resultCode: { type: 'integer' }, resultMessage: { type: 'string' },
    serverTime: { type: 'string', description: 'YYYY-MM-DDTHH:mm:ss in the game\'s time zone' },
    serverVersion: { type: 'integer' },
  },
  required: ['resultCode', 'resultMessage', 'serverTime', 'serverVersion'],
};

export const openApiDocument = (serverVersion: number): Schema => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const errors: ErrorName[] = [...new Set<ErrorName>([...op.errors, ...COMMON, ...(op.access === 'session' ? ['PLAYER_SESSION_EXPIRED' as const] : [])])];
    if (!isImplemented(op)) errors.splice(0, errors.length, 'NOT_IMPLEMENTED');
    const req = schemaOf(op.request);
    const method = op.method.toLowerCase();
    const operation: Record<string, unknown> = {
      operationId: op.name, summary: op.summary, tags: [op.group],
      'x-implemented': isImplemented(op),
      'x-result-codes': errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e] })),
      security: op.access === 'session' ? [{ session: [] }, { bearer: [] }] : [],
      responses: {
        200: { description: 'Success (resultCode 0)', content: { 'application/json': { schema: { allOf: [ENVELOPE, schemaOf(op.response)] } } } },
        default: { description: 'Error: the envelope with a non-zero resultCode', content: { 'application/json': { schema: ENVELOPE } } },
      },
    };
    if (op.method === 'GET') {
      const props = (req['properties'] as Record<string, Schema> | undefined) ?? {};
      const required = new Set((req['required'] as string[] | undefined) ?? []);
      operation['parameters'] = Object.entries(props).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
    } else {
      operation['requestBody'] = { required: false, content: { 'application/json': { schema: req } } };
    }
    paths[`/api${op.path}`] = { [method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'hoshi player service', version: String(serverVersion), description: 'Every response is the envelope (resultCode, resultMessage, serverTime, serverVersion) with the payload beside it.' },
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'header', name: 'X-STAR-SESSION-ID' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
};
