// The typed HTTP client of hoshi. Its methods are made at run time from the operations'
// descriptions (core/api/, the same entries the server's table routes), one per operation,
// and typed by a mapped type over the operation names: the request is RequestOf<N>,
// the answer ResponseOf<N> & Changes, both from the operations' io-ts codecs. Nothing
// here is kept by hand per operation, so a new or changed operation is in the client
// as soon as it is in the table.
//
// Answers: every answer with the service's envelope is a value, never an exception:
// `{ ok: true, value, envelope, status }` or `{ ok: false, resultCode, resultMessage,
// status, detail }` (switch on `ok`, then on `resultCode`). A ClientError is thrown
// only when there is no such answer: the network failed on every attempt
// ('network'), the answer is not the service's envelope ('protocol'), or, with
// checkAnswers, an answer breaks its declared codec ('contract').
// The descriptions only (core/api/), not the table: no reducer, so the client bundles for a browser.
import {
  DESCRIPTIONS,
  TYPED_DESCRIPTIONS,
  type OperationName,
  type RequestOf,
  type ResponseOf,
} from '../core/api/index.js';
import { accessOf, answerCodec, type AnyDescription } from '../core/api/describe.js';
import { answerProblems } from '../core/answer-check.js';
import type { Changes } from '../core/views/codecs.js';
import { requestHash } from './hash.js';
import { backoffMs, DEFAULT_RETRY, retryAfterMs, retryReasonOf, type RetryPolicy, type RetryReason } from './retry.js';

export type { OperationName, RequestOf, ResponseOf } from '../core/api/index.js';
export type { RetryPolicy, RetryReason } from './retry.js';
export { requestHash, requestHashText } from './hash.js';

/** A JSON value, as parsed from an answer. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The envelope every answer carries beside its payload. */
export interface Envelope {
  readonly resultCode: number;
  readonly resultMessage: string;
  readonly serverTime: string;
  readonly serverVersion: number;
}

/**
 * An operation's answer without the envelope: its own part and, for an operation
 * that changed the player, the changed parts of the player's view (Changes, every
 * field optional; read-only and account operations carry none of them).
 */
export type AnswerOf<N extends OperationName> = ResponseOf<N> & Changes;

export interface Success<N extends OperationName> {
  readonly ok: true;
  readonly value: AnswerOf<N>;
  readonly envelope: Envelope;
  readonly status: number;
}

/** An answer with a result code other than 0 (after any retries). */
export interface Failure {
  readonly ok: false;
  readonly resultCode: number;
  readonly resultMessage: string;
  /** The HTTP status (200 for every answer when the server runs with ALWAYS_200). */
  readonly status: number;
  /** What else the answer carried beside the envelope (requestId, ...). */
  readonly detail: Readonly<Record<string, Json>>;
}

export type CallResult<N extends OperationName> = Success<N> | Failure;

/** Per call: the Idempotency-Key to use (default: a new random UUID for each logical POST). */
export interface CallOptions {
  readonly idempotencyKey?: string;
}

type NoFields = Record<never, never>;
/** A method's arguments: the request may be left out when the operation needs no field. */
export type ArgsOf<N extends OperationName> =
  NoFields extends RequestOf<N>
    ? [request?: RequestOf<N>, options?: CallOptions]
    : [request: RequestOf<N>, options?: CallOptions];

/** One method per operation of the table. */
export type OperationMethods = { readonly [N in OperationName]: (...args: ArgsOf<N>) => Promise<CallResult<N>> };

/** What sign-up (or a move) gave this device: enough to log in again. */
export interface Credentials {
  readonly uuid: string;
  readonly accessToken: string;
  readonly playerId: number;
}

/** What the client reports of its attempts (for logs and tests). */
export type ClientEvent =
  | {
      readonly kind: 'attempt';
      readonly operation: OperationName;
      readonly attempt: number;
      readonly idempotencyKey: string | null;
    }
  | {
      readonly kind: 'retry';
      readonly operation: OperationName;
      readonly attempt: number;
      readonly reason: RetryReason;
      readonly delayMs: number;
      readonly idempotencyKey: string | null;
    };

export interface ClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:8080` (the client adds `/api/...`). */
  readonly baseUrl: string;
  /** The request-hash salt: when given, every request carries X-STAR-REQUESTHASH. */
  readonly salt?: string;
  readonly fetch?: typeof fetch;
  /** Attempts after the first for a retryable failure (default 3; 0 never retries). */
  readonly retries?: number;
  /** Back-off: the first delay, its cap, and the longest Retry-After honoured. */
  readonly backoff?: Partial<Omit<RetryPolicy, 'retries'>>;
  /** How to wait between attempts (tests inject one that records the delays). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The jitter's source, in [0, 1). */
  readonly random?: () => number;
  readonly newIdempotencyKey?: () => string;
  /** Abort an attempt after this long (a network failure, retried like one). */
  readonly timeoutMs?: number;
  /** Debug: check every answer strictly against its operation's codec (core/answer-check.ts); a break throws ClientError 'contract'. */
  readonly checkAnswers?: boolean;
  readonly onEvent?: (e: ClientEvent) => void;
  /** A session id or credentials kept from an earlier run. */
  readonly sessionId?: string;
  readonly credentials?: Credentials;
  /** Sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ClientState {
  /** The session id sent (X-STAR-SESSION-ID) on session operations: the last log-in's. */
  readonly sessionId: string | undefined;
  /** The last sign-up's or move's uuid, access token and player id. */
  readonly credentials: Credentials | undefined;
  /** Uses another session id (or none). */
  useSession(sessionId: string | undefined): void;
  /** The method of an operation by its name. */
  call<N extends OperationName>(name: N, ...args: ArgsOf<N>): Promise<CallResult<N>>;
}

export type HoshiClient = OperationMethods & ClientState;

// No operation may be named like one of the client's own members.
type Clash = Extract<keyof ClientState, OperationName>;
const noClash: [Clash] extends [never] ? true : false = true;
void noClash;

export class ClientError extends Error {
  constructor(
    readonly kind: 'network' | 'protocol' | 'contract',
    readonly operation: OperationName,
    message: string,
    /** For 'contract': each `path: what` the answer breaks. */
    readonly problems: ReadonlyArray<string> = [],
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
    this.name = 'ClientError';
  }
}

/** A call's answer before its type is given to it. */
type Untyped =
  | { readonly ok: true; readonly value: { [key: string]: Json }; readonly envelope: Envelope; readonly status: number }
  | Failure;

const ENVELOPE_KEYS = new Set(['resultCode', 'resultMessage', 'serverTime', 'serverVersion']);

const isObject = (u: Json | undefined): u is { [key: string]: Json } =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

const parseJson = (text: string): Json | undefined => {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
};

/** The envelope and the rest of an answer; null when it is not the service's envelope. */
const splitAnswer = (body: Json | undefined): { envelope: Envelope; rest: { [key: string]: Json } } | null => {
  if (!isObject(body)) return null;
  const { resultCode, resultMessage, serverTime, serverVersion } = body;
  if (typeof resultCode !== 'number' || typeof resultMessage !== 'string') return null;
  const rest: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(body)) if (!ENVELOPE_KEYS.has(k)) rest[k] = v;
  return {
    envelope: {
      resultCode,
      resultMessage,
      serverTime: typeof serverTime === 'string' ? serverTime : '',
      serverVersion: typeof serverVersion === 'number' ? serverVersion : 0,
    },
    rest,
  };
};

/** A query value: lists comma-joined (`1,2,3`), as the server's IdList reads them. */
const queryValue = (v: unknown): string =>
  Array.isArray(v) ? v.map(queryValue).join(',') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
// Commas stay readable; everything else is escaped, so what is hashed is exactly what is sent.
const escape = (s: string): string => encodeURIComponent(s).replace(/%2C/gi, ',');

const queryOf = (fields: unknown): string => {
  if (typeof fields !== 'object' || fields === null) return '';
  const parts = Object.entries(fields).flatMap(([k, v]) =>
    v === undefined ? [] : [`${escape(k)}=${escape(queryValue(v))}`],
  );
  return parts.length > 0 ? `?${parts.join('&')}` : '';
};

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the client keeps from an account operation's answer. */
type Keepers = { readonly [N in OperationName]?: (request: RequestOf<N>, value: AnswerOf<N>) => void };

/** Makes a client of the service at `opts.baseUrl`. */
export const createClient = (opts: ClientOptions): HoshiClient => {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY,
    ...opts.backoff,
    retries: Math.max(0, opts.retries ?? DEFAULT_RETRY.retries),
  };
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  const newKey = opts.newIdempotencyKey ?? (() => crypto.randomUUID());
  const emit = opts.onEvent ?? (() => undefined);
  let sessionId = opts.sessionId;
  let credentials = opts.credentials;

  const keepers: Keepers = {
    signupPlayer: (req, v) => {
      credentials = { uuid: req.uuid.toLowerCase(), accessToken: v.accessToken, playerId: v.playerId };
    },
    loginPlayer: (_req, v) => {
      sessionId = v.sessionId;
    },
    // The account now lives on this device with a new token; sessions of the old one end.
    setPlayerMove: (req, v) => {
      credentials = { uuid: req.uuid.toLowerCase(), accessToken: v.accessToken, playerId: v.playerId };
      sessionId = undefined;
    },
  };

  const perform = async (
    name: OperationName,
    op: AnyDescription,
    request: unknown,
    callOpts: CallOptions | undefined,
  ): Promise<Untyped> => {
    // The codec's encoding is the wire form (unknown fields dropped); GET fields go in the query.
    const fields = op.request.encode(request ?? {});
    const pathWithQuery = `/api${op.path}${op.method === 'GET' ? queryOf(fields) : ''}`;
    const body = op.method === 'POST' ? JSON.stringify(fields ?? {}) : undefined;
    const session = accessOf(op) === 'session' ? sessionId : undefined;
    const key = op.method === 'POST' ? (callOpts?.idempotencyKey ?? newKey()) : null;
    const headers: Record<string, string> = { ...opts.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (session) headers['X-STAR-SESSION-ID'] = session;
    if (key !== null) headers['Idempotency-Key'] = key;
    if (opts.salt !== undefined)
      headers['X-STAR-REQUESTHASH'] = await requestHash({ sessionId: session, pathWithQuery, body, salt: opts.salt });
    // A lost answer of a POST is safe to ask again (its key makes it apply once); of a GET only when it changes nothing.
    const networkRetryable = key !== null || op.readOnly === true;

    for (let attempt = 1; ; attempt++) {
      emit({ kind: 'attempt', operation: name, attempt, idempotencyKey: key });
      const last = attempt > policy.retries;
      const retry = async (reason: RetryReason, delayMs: number) => {
        emit({ kind: 'retry', operation: name, attempt, reason, delayMs, idempotencyKey: key });
        await sleep(delayMs);
      };
      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        const res = await doFetch(`${base}${pathWithQuery}`, {
          method: op.method,
          headers,
          body,
          signal: opts.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined,
        });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        text = await res.text();
      } catch (err) {
        if (last || !networkRetryable)
          throw new ClientError(
            'network',
            name,
            `no answer after ${attempt} attempt(s): ${err instanceof Error ? err.message : String(err)}`,
            [],
            { cause: err },
          );
        await retry('network', backoffMs(attempt, policy, random));
        continue;
      }
      const parsed = parseJson(text);
      const split = splitAnswer(parsed);
      const reason = retryReasonOf(status, split?.envelope.resultCode);
      if (reason !== null && !last) {
        const after = reason === 'rate-limited' ? retryAfterMs(retryAfter, Date.now()) : null;
        // A wait longer than the policy allows is the caller's to decide: the 429 is the answer.
        if (after === null || after <= policy.maxRetryAfterMs) {
          await retry(reason, after ?? backoffMs(attempt, policy, random));
          continue;
        }
      }
      if (!split)
        throw new ClientError('protocol', name, `HTTP ${status} without the service's envelope: ${text.slice(0, 200)}`);
      const { envelope, rest } = split;
      if (envelope.resultCode !== 0) {
        // A server that checks its answers (CHECK_ANSWERS) reports a broken one as 999 with what was wrong.
        const reported = rest['answerProblems'];
        if (opts.checkAnswers && Array.isArray(reported))
          throw new ClientError(
            'contract',
            name,
            'the server reports an answer that breaks its declared codec',
            reported.map(String),
          );
        return {
          ok: false,
          resultCode: envelope.resultCode,
          resultMessage: envelope.resultMessage,
          status,
          detail: rest,
        };
      }
      if (opts.checkAnswers) {
        const problems = answerProblems(answerCodec(op), rest);
        if (problems.length > 0)
          throw new ClientError(
            'contract',
            name,
            `the answer breaks its declared codec:\n  ${problems.join('\n  ')}`,
            problems,
          );
      }
      return { ok: true, value: rest, envelope, status };
    }
  };

  const byName = new Map<string, AnyDescription>(DESCRIPTIONS.map((o) => [o.name, o]));
  const call = async <N extends OperationName>(name: N, ...args: ArgsOf<N>): Promise<CallResult<N>> => {
    const op = byName.get(name);
    if (!op) throw new Error(`no operation ${name} in the table`);
    const [request, callOpts] = args;
    // The trust boundary: the answer is the operation's (checked field by field with checkAnswers).
    const r = (await perform(name, op, request, callOpts)) as unknown as CallResult<N>;
    if (r.ok && request !== undefined) keepers[name]?.(request, r.value);
    return r;
  };

  const client: ClientState = {
    get sessionId() {
      return sessionId;
    },
    get credentials() {
      return credentials;
    },
    useSession: (id) => {
      sessionId = id;
    },
    call,
  };
  const methodOf =
    <N extends OperationName>(name: N) =>
    (...args: ArgsOf<N>) =>
      call(name, ...args);
  const methods: Partial<Record<OperationName, (...args: never) => unknown>> = {};
  for (const { name } of TYPED_DESCRIPTIONS) methods[name] = methodOf(name);
  // Every name of the table has its method (made just above from the same table).
  return Object.assign(client, methods) as HoshiClient;
};
