// What an operator's tooling asks of the server, outside /api and its rate limits:
// GET /healthz (the process answers), GET /readyz (it can serve: the storage is
// open and takes writes, the master data is loaded, it is not shutting down) and
// GET /metrics (Prometheus). And which methods a known path takes, for 405.
import type Koa from 'koa';
import { createHash, timingSafeEqual } from 'node:crypto';
import { OPERATIONS } from '../../core/operations/table.js';
import type { GameService } from '../service/service.js';
import { ADMIN_OPERATIONS } from './admin-operations.js';
import { CONSOLE_PATHS, consolePaths } from './console-static.js';
import type { Metrics } from './metrics.js';
import { readiness, type Lifecycle } from './readiness.js';

export { readiness, type Lifecycle, type ReadyAnswer } from './readiness.js';

export const OPS_PATHS = { healthz: '/healthz', readyz: '/readyz', metrics: '/metrics' } as const;

const digest = (s: string) => createHash('sha256').update(s).digest();

export interface OpsOptions {
  readonly lifecycle: Lifecycle;
  /** Absent: GET /metrics is not served (METRICS=off). */
  readonly metrics?: Metrics;
  /** When set, GET /metrics needs Authorization: Bearer <token>. */
  readonly metricsToken?: string;
}

/** Serves the three paths (GET and HEAD); anything else goes on to `next`. */
export const opsMiddleware = (service: GameService, opts: OpsOptions): Koa.Middleware => {
  const want = opts.metricsToken ? digest(opts.metricsToken) : undefined;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    switch (ctx.path) {
      case OPS_PATHS.healthz:
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'ok' };
        return;
      case OPS_PATHS.readyz: {
        const r = await readiness(service, opts.lifecycle);
        ctx.set('Cache-Control', 'no-store');
        ctx.status = r.status === 'ready' ? 200 : 503;
        ctx.body = r;
        return;
      }
      case OPS_PATHS.metrics: {
        if (!opts.metrics) return next();
        if (want) {
          const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'));
          if (!m || !timingSafeEqual(digest(m[1] ?? ''), want)) {
            ctx.status = 401;
            ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
            ctx.body = { error: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' };
            return;
          }
        }
        ctx.set('Cache-Control', 'no-store');
        ctx.type = opts.metrics.contentType;
        ctx.body = await opts.metrics.text();
        return;
      }
      default:
        return next();
    }
  };
};

/** A route's path as a pattern: `:name` segments match any one segment. */
const pattern = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
  );

/**
 * The methods each known path answers, for a 405 with Allow when another is used:
 * the operations, the OpenAPI document, the probes and, with ADMIN_TOKEN, /admin and its console.
 */
export const allowedMethods = (opts: {
  readonly admin: boolean;
  readonly metrics: boolean;
}): ((path: string) => string[] | undefined) => {
  const routes: Array<{ re: RegExp; methods: Set<string> }> = [];
  const add = (path: string, method: string) => {
    const re = pattern(path);
    const found = routes.find((r) => r.re.source === re.source);
    if (found) found.methods.add(method);
    else routes.push({ re, methods: new Set([method]) });
  };
  for (const op of OPERATIONS) for (const path of [op.path, ...(op.aliases ?? [])]) add(`/api${path}`, op.method);
  add('/api/openapi.json', 'GET');
  add(OPS_PATHS.healthz, 'GET');
  add(OPS_PATHS.readyz, 'GET');
  if (opts.metrics) add(OPS_PATHS.metrics, 'GET');
  if (opts.admin) for (const op of ADMIN_OPERATIONS) add(op.path, op.method);
  if (opts.admin) for (const path of consolePaths()) add(path, 'GET');
  return (path) => {
    const r = routes.find((x) => x.re.test(path));
    if (!r) return undefined;
    const methods = [...r.methods];
    // A GET route answers HEAD too.
    if (r.methods.has('GET')) methods.push('HEAD');
    return methods.sort();
  };
};

/** The operation a path names, for logs and metrics: the table's name, or what the path is. */
export const operationNamer = (): ((method: string, path: string) => string) => {
  const byRoute = new Map<string, string>();
  for (const op of OPERATIONS)
    for (const path of [op.path, ...(op.aliases ?? [])]) byRoute.set(`${op.method} /api${path}`, op.name);
  const admin = ADMIN_OPERATIONS.map((op) => ({ method: op.method, re: pattern(op.path), name: op.name }));
  return (method, path) => {
    const m = method === 'HEAD' ? 'GET' : method;
    const hit = byRoute.get(`${m} ${path}`);
    if (hit) return hit;
    if (path === OPS_PATHS.healthz) return 'healthz';
    if (path === OPS_PATHS.readyz) return 'readyz';
    if (path === OPS_PATHS.metrics) return 'metrics';
    if (path === '/api/openapi.json') return 'openapi';
    if (path === '/admin' || path === CONSOLE_PATHS.page || path.startsWith(CONSOLE_PATHS.files)) return 'console';
    const a = admin.find((x) => x.method === m && x.re.test(path));
    return a ? a.name : 'unknown';
  };
};
