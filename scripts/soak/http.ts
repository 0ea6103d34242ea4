// The soak's HTTP: a fetch over node:http with an Agent of its own, so each load
// client is one keep-alive connection (the typed client takes any fetch), and
// small JSON helpers for the operator API and the metrics scrape. Traffic goes to
// 127.0.0.1 only: the server is a child started on a free loopback port.
import http from 'node:http';
import type { Json } from '../../client/index.js';

/** One keep-alive connection: requests queue on it in the order they were made. */
export const connection = (): http.Agent => new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A `fetch` for the typed client that sends every request through `agent`. */
export const agentFetch =
  (agent: http.Agent): typeof fetch =>
  (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : new URL(input.url);
    if (url.hostname !== '127.0.0.1')
      return Promise.reject(new Error(`the soak talks to 127.0.0.1 only, not ${url.hostname}`));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const body = typeof init?.body === 'string' ? init.body : undefined;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        url,
        { method: init?.method ?? 'GET', headers, agent, signal: init?.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
            const status = res.statusCode ?? 0;
            resolve(
              new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks).toString('utf8'), {
                status,
                headers: h,
              }),
            );
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };

export interface JsonAnswer {
  readonly status: number;
  readonly body: { [key: string]: Json } | null;
}

const asObject = (text: string): { [key: string]: Json } | null => {
  try {
    const v = JSON.parse(text) as Json;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
};

/** The operator API (/admin, Bearer token); POSTs carry an Idempotency-Key as every POST of the soak does. */
export const admin = (baseUrl: string, token: string) => {
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<JsonAnswer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = crypto.randomUUID();
    }
    const r = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: r.status, body: asObject(await r.text()) };
  };
  /** A read is asked again when no answer came (a server busy in a long checkpoint may drop a kept-alive connection). */
  const get = async (path: string): Promise<JsonAnswer> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call('GET', path);
      } catch (e) {
        if (attempt >= 3) throw e;
        await new Promise((r) => setTimeout(r, 1000 * attempt));
      }
    }
  };
  return { get, post: (path: string, body: unknown) => call('POST', path, body) };
};
export type Admin = ReturnType<typeof admin>;

/** GET /metrics as text (Prometheus format). */
export const scrapeMetrics = async (baseUrl: string): Promise<string> => {
  const r = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
  if (r.status !== 200) throw new Error(`GET /metrics answered ${r.status}`);
  return r.text();
};

/** A metric's value from the text format (the first sample of that name, labels ignored); undefined when absent. */
/** A histogram's cumulative buckets from a scrape, `[le, count]` in order (+Inf as Infinity); undefined when absent. */
export const histogramBuckets = (text: string, name: string): Array<readonly [number, number]> | undefined => {
  const out: Array<readonly [number, number]> = [];
  for (const m of text.matchAll(new RegExp(`^${name}_bucket\\{(?:[^}]*,)?le="([^"]+)"[^}]*\\} (\\S+)`, 'gm'))) {
    out.push([m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2])]);
  }
  return out.length > 0 ? out : undefined;
};

/**
 * The q-quantile of the observations between two scrapes of a histogram (`before`
 * undefined: since the start), interpolated within its bucket as PromQL's
 * histogram_quantile does; null when nothing was observed between them.
 */
export const bucketQuantile = (
  after: ReadonlyArray<readonly [number, number]>,
  before: ReadonlyArray<readonly [number, number]> | undefined,
  q: number,
): number | null => {
  const counts = after.map(([le, n], i) => [le, n - (before?.[i]?.[1] ?? 0)] as const);
  const total = counts[counts.length - 1]?.[1] ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, n] of counts) {
    if (n >= rank) {
      // Beyond the last finite bound: the last finite bound, as histogram_quantile answers.
      if (le === Infinity) return lower;
      return lower + (le - lower) * ((rank - below) / Math.max(1, n - below));
    }
    lower = le;
    below = n;
  }
  return lower;
};

export const metricValue = (text: string, name: string): number | undefined => {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
};
