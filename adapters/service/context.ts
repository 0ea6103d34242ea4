// The request context: built once at the edge (the HTTP adapter, or any other
// transport), before anything else runs, and handed down unchanged. `now` is the
// one clock read of the request: the session's idle check, the reducer, the
// commit, the idempotency record and the envelope's serverTime all use it.

/** A request's Idempotency-Key and the hash of what it asks (method, path, body). */
export interface Idem {
  readonly key: string;
  readonly requestHash: string;
}

export interface RequestContext {
  /** The instant of the request (epoch ms), read once. */
  readonly now: number;
  /** The id the request is logged under (X-Request-Id). */
  readonly requestId: string;
  /** The session id the request carried, if any (resolved by the service for entries found by session). */
  readonly session: string | undefined;
  /** The request's Idempotency-Key, if it gave one. */
  readonly idempotencyKey: Idem | undefined;
  /** Told the player the request is for once the service has found it (the edge's request log and metrics). */
  readonly onPlayer?: (playerId: number) => void;
}

/** A context for callers that are not a request (tools, tests): the clock read once here. */
export const contextAt = (now: number, extra: Partial<Omit<RequestContext, 'now'>> = {}): RequestContext => ({
  now,
  requestId: extra.requestId ?? '',
  session: extra.session,
  idempotencyKey: extra.idempotencyKey,
});
