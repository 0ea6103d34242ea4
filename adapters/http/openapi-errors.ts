// The error answers of the OpenAPI document (openapi.ts): the errors each operation can
// give, why each is given, and the shared components.responses they become.
import { accessOf, type AnyOperation } from '../../core/operation.js';
import { RESULT_CODES, type ErrorName } from '../../core/errors.js';
import { ref, type Schema } from './json-schema.js';

/** Errors any operation can give, besides its own. */
const TRANSPORT: ReadonlyArray<ErrorName> = [
  'INVALID_PARAMETERS',
  'INSUFFICIENT_PARAMETERS',
  'INVALID_REQUEST_HASH',
  'RATE_LIMITED',
  'DB_ERROR',
  'UNKNOWN_ERROR',
];

/** Every error an operation can answer with: its own, the request's, the session's, idempotency's. */
export const errorsOf = (op: AnyOperation): ErrorName[] =>
  [
    ...new Set<ErrorName>([
      ...op.errors,
      ...TRANSPORT,
      ...(op.method === 'POST' ? (['BODY_TOO_LARGE', 'IDEMPOTENCY_KEY_REUSED', 'REQUEST_IN_PROGRESS'] as const) : []),
      // A retry of an answer that handed out a secret (an access token, a session id): done once, not shown again.
      ...(op.method === 'POST' && op.issues ? (['ANSWER_WITHHELD'] as const) : []),
      ...(accessOf(op) === 'session' ? (['PLAYER_SESSION_EXPIRED'] as const) : []),
      // A commit that keeps losing the race with another writer of the same player.
      ...(accessOf(op) === 'session' && !op.readOnly ? (['STATE_CONFLICT'] as const) : []),
      // Any change that would put a present beyond the box's bound is refused (master data presents.boxMax).
      ...(accessOf(op) === 'session' && !op.readOnly ? (['PRESENT_LIMIT'] as const) : []),
    ]),
  ].sort((a, b) => RESULT_CODES[a].resultCode - RESULT_CODES[b].resultCode);

const WHY: Partial<Record<ErrorName, string>> = {
  INVALID_PARAMETERS: 'a field is not valid (the message names it)',
  INSUFFICIENT_PARAMETERS: 'a required field is missing (the message names it)',
  INVALID_REQUEST_HASH: 'X-STAR-REQUESTHASH does not match the request, or is missing where the server requires it',
  DB_ERROR: 'the store failed; nothing changed, try again later',
  BODY_TOO_LARGE: "the body is larger than the server's limit (BODY_LIMIT_BYTES)",
  IDEMPOTENCY_KEY_REUSED: 'this Idempotency-Key was used with a different request',
  REQUEST_IN_PROGRESS: 'a request with this Idempotency-Key is still running; retry it later with the same key',
  RATE_LIMITED: 'too many requests; wait for Retry-After seconds',
  PRESENT_LIMIT: 'the present box is full (master data presents.boxMax): receive presents first; nothing changed',
  ANSWER_WITHHELD:
    "this Idempotency-Key's request was done; its answer held a secret (access token, session id), which is never replayed: log in again; a sign-up whose token was lost has no progress yet: sign up again with a new uuid",
  PLAYER_SESSION_EXPIRED: 'no session, an unknown one, or one idle too long: log in again',
  STATE_CONFLICT: 'not allowed in the current state, or the player changed concurrently; the message says which',
  NOT_FOUND: 'no such entity (a master id or an owned id)',
  UNKNOWN_ERROR: 'a server fault; the body carries requestId for the logs',
};
export const why = (e: ErrorName): string => WHY[e] ?? e.toLowerCase().replace(/_/g, ' ');

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid session',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Body too large',
  422: 'Idempotency-Key reused',
  429: 'Rate limited',
  500: 'Server fault',
  501: 'Not implemented',
  503: 'Store unavailable',
};

const RETRY_AFTER = {
  description: 'Seconds to wait before the next request.',
  schema: { type: 'integer', minimum: 1 },
};

export interface ErrorAnswer {
  readonly name: string;
  readonly resultCode: number;
  readonly status: number;
  readonly why: string;
}

/**
 * The error answers of an operation, one per HTTP status, each listing its result
 * codes. An answer several operations share (the same status and codes) is one
 * component of components.responses, so the document stays readable.
 */
export class ErrorResponses {
  readonly components: Record<string, Schema> = {};
  of(errors: ReadonlyArray<ErrorAnswer>): Record<string, Schema> {
    const byStatus = new Map<number, ErrorAnswer[]>();
    for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
    return Object.fromEntries(
      [...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, list]) => {
          const codes = [...new Set(list.map((e) => e.resultCode))];
          const response: Schema = {
            description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((e) => `${e.resultCode} ${e.name} (${e.why})`).join('; ')}.`,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    ref('ErrorEnvelope'),
                    {
                      type: 'object',
                      properties: { resultCode: { type: 'integer', enum: codes } },
                      required: ['resultCode'],
                    },
                  ],
                },
              },
            },
          };
          if (status === 429) response['headers'] = { 'Retry-After': RETRY_AFTER };
          const name = `Error${status}_${list.map((e) => e.name).join('_')}`;
          this.components[name] ??= response;
          return [String(status), { $ref: `#/components/responses/${name}` }];
        }),
    );
  }
}
