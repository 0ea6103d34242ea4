// The OpenAPI 3.1 document, generated from the operations table and the same io-ts
// codecs that validate requests and check answers: what is published is what is
// enforced. Named codecs (the views, the XxxResponse and XxxRequest codecs) become
// components.schemas, referenced by $ref wherever they are used, so a generated
// client gets one type per view. The codecs are walked into JSON Schema by
// json-schema.ts; the error answers are built by openapi-errors.ts, and the parts no
// codec gives are in openapi-components.ts (envelope, headers, prose) and openapi-ops.ts.
import type * as t from 'io-ts';
import { OPERATIONS } from '../../core/operations/table.js';
import { accessOf, answerCodec, type AnyOperation } from '../../core/operation.js';
import { PlayerState } from '../../core/state.js';
import { RESULT_CODES } from '../../core/errors.js';
import { HTTP_STATUS } from './status.js';
import { ADMIN_OPERATIONS, type AdminOperation } from './admin-operations.js';
import { core, ref, SchemaWalker, type Schema } from './json-schema.js';
import { errorsOf, ErrorResponses, why } from './openapi-errors.js';
import {
  COMPONENT_DESCRIPTIONS,
  DESCRIPTION,
  ENVELOPE,
  ERROR_ENVELOPE,
  GROUP_DESCRIPTIONS,
  PARAMETERS,
} from './openapi-components.js';
import { OPS_PATHS_DOC } from './openapi-ops.js';
import { timeDescriptions, timesParagraph } from './openapi-times.js';

/** The 200 answer: the envelope and the operation's own fields (and, where it can change state, Changes). */
const okResponse = (w: SchemaWalker, codec: t.Mixed, at: string): Schema => {
  const answer = w.schema(codec, at);
  const parts =
    Array.isArray(answer['allOf']) && Object.keys(answer).length === 1 ? (answer['allOf'] as Schema[]) : [answer];
  return {
    description: 'Success (resultCode 0).',
    content: { 'application/json': { schema: { allOf: [ref('Envelope'), ...parts] } } },
  };
};

const apiOperation = (w: SchemaWalker, errorResponses: ErrorResponses, op: AnyOperation): Schema => {
  const errors = errorsOf(op);
  const operation: Schema = {
    operationId: op.name,
    summary: op.summary,
    tags: [op.group],
    description:
      op.method === 'GET'
        ? 'A GET: its fields are query parameters (no body); several ids go comma-separated.'
        : 'A POST: its fields are a JSON object body. Send Idempotency-Key to make a retry safe.',
    'x-result-codes': errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e] })),
    security: accessOf(op) === 'session' ? [{ session: [] }, { bearer: [] }] : [],
    parameters: [
      { $ref: '#/components/parameters/RequestHash' },
      ...(op.method === 'POST' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    responses: {
      200: okResponse(w, answerCodec(op), `${op.name}.response`),
      ...errorResponses.of(
        errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e], why: why(e) })),
      ),
    },
  };
  if (op.method === 'GET') {
    const req = w.inline(core(op.request), `${op.name}.request`);
    const props = (req['properties'] as Record<string, Schema> | undefined) ?? {};
    const required = new Set((req['required'] as string[] | undefined) ?? []);
    operation['parameters'] = [
      ...Object.entries(props).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema })),
      ...(operation['parameters'] as Schema[]),
    ];
  } else {
    operation['requestBody'] = {
      required: true,
      content: { 'application/json': { schema: w.schema(op.request, `${op.name}.request`) } },
    };
  }
  return operation;
};

const adminOperation = (w: SchemaWalker, errorResponses: ErrorResponses, op: AdminOperation): Schema => {
  const errors = [
    ...op.errors.map((e) => ({ name: e, resultCode: RESULT_CODES[e].resultCode, status: HTTP_STATUS[e], why: why(e) })),
    {
      name: 'ADMIN_TOKEN' as const,
      resultCode: RESULT_CODES.PLAYER_SESSION_EXPIRED.resultCode,
      status: 401,
      why: 'no Authorization: Bearer <ADMIN_TOKEN>, or the wrong token',
    },
  ].sort((a, b) => a.resultCode - b.resultCode);
  const operation: Schema = {
    operationId: op.name,
    summary: op.summary,
    description: op.description,
    tags: ['admin'],
    security: [{ adminBearer: [] }],
    'x-result-codes': errors.map((e) => ({ name: e.name, resultCode: e.resultCode, status: e.status })),
    responses: { 200: okResponse(w, op.response, `${op.name}.response`), ...errorResponses.of(errors) },
  };
  const parameters = [
    ...Object.entries(op.pathParameters ?? {}).map(([name, codec]) => ({
      name,
      in: 'path',
      required: true,
      schema: w.schema(codec, `${op.name}.${name}`),
    })),
    ...Object.entries(op.queryParameters ?? {}).map(([name, q]) => ({
      name,
      in: 'query',
      required: false,
      description: q.description,
      schema: w.schema(q.codec, `${op.name}.${name}`),
    })),
  ];
  if (parameters.length > 0) operation['parameters'] = parameters;
  if (op.request)
    operation['requestBody'] = {
      required: true,
      content: { 'application/json': { schema: w.schema(op.request, `${op.name}.request`) } },
    };
  return operation;
};

/**
 * The document and what the walk found wrong (clashing names, codecs it could not describe).
 * timeZone: the game's (master data's game.timezoneOffsetMinutes as "+09:00"), which every
 * time in a request or answer is written in.
 */
export const buildOpenApi = (
  serverVersion: number,
  timeZone: string,
): { document: Schema; clashes: string[]; untyped: string[] } => {
  const w = new SchemaWalker(true, [[PlayerState, 'PlayerState']]);
  const errors = new ErrorResponses();
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of OPERATIONS) {
    const entry = apiOperation(w, errors, op);
    (paths[`/api${op.path}`] ??= {})[op.method.toLowerCase()] = entry;
    // An alias (the original's older name) is the same entry at another path, marked deprecated.
    for (const alias of op.aliases ?? []) {
      const last = alias.split('/').pop() ?? '';
      (paths[`/api${alias}`] ??= {})[op.method.toLowerCase()] = {
        ...entry,
        operationId: `${op.name}Via${last.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase())}`,
        deprecated: true,
        description: `The original's older path of ${op.method} /api${op.path} (${op.name}), served by the same entry. ${entry['description'] as string}`,
      };
    }
  }
  for (const op of ADMIN_OPERATIONS) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[op.method.toLowerCase()] = adminOperation(w, errors, op);
  }
  Object.assign(paths, OPS_PATHS_DOC);
  const groups = [...new Set([...OPERATIONS.map((o) => o.group), 'admin', 'ops'])];
  const described: Record<string, string> = { ...COMPONENT_DESCRIPTIONS, ...timeDescriptions(timeZone) };
  const components = Object.fromEntries(
    Object.entries(w.components)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, schema]) => [name, described[name] ? { description: described[name], ...schema } : schema]),
  );
  const document: Schema = {
    openapi: '3.1.0',
    info: {
      title: 'hoshi player service',
      version: String(serverVersion),
      description: `${DESCRIPTION}\n\n${timesParagraph(timeZone)}`,
      'x-time-zone': timeZone,
    },
    servers: [
      {
        url: '/',
        description:
          'This server: player operations under /api, the operator API under /admin, probes and metrics at the root.',
      },
    ],
    tags: groups.map((name) => ({ name, description: GROUP_DESCRIPTIONS[name] ?? `The ${name} operations.` })),
    paths,
    components: {
      schemas: { Envelope: ENVELOPE, ErrorEnvelope: ERROR_ENVELOPE, ...components },
      parameters: PARAMETERS,
      responses: Object.fromEntries(Object.entries(errors.components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'header',
          name: 'X-STAR-SESSION-ID',
          description: 'The session id that POST /api/player/login gives.',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The same session id as `Authorization: Bearer <sessionId>` (X-STAR-SESSION-ID wins when both are sent).',
        },
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The operator API: `Authorization: Bearer <ADMIN_TOKEN>`, the token the server was started with.',
        },
        metricsBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'GET /metrics when the server has METRICS_TOKEN: `Authorization: Bearer <METRICS_TOKEN>`.',
        },
      },
    },
  };
  return { document, clashes: w.clashes, untyped: w.untyped };
};

const built = new Map<string, Schema>();
/** The document served at GET /api/openapi.json (built once per server version and time zone: the table does not change). */
export const openApiDocument = (serverVersion: number, timeZone: string): Schema => {
  const key = `${serverVersion} ${timeZone}`;
  let doc = built.get(key);
  if (!doc) built.set(key, (doc = buildOpenApi(serverVersion, timeZone).document));
  return doc;
};
