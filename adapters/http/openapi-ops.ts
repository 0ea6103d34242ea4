// The OpenAPI document's entries of the probes and metrics (openapi.ts): GET /healthz,
// /readyz and /metrics, outside /api.
import { ref, type Schema } from './json-schema.js';

/** GET /healthz, /readyz and /metrics (adapters/http/ops.ts): plain answers, no envelope. */
export const OPS_PATHS_DOC: Record<string, Record<string, Schema>> = (() => {
  const checks = {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { enum: ['ready', 'not ready'] },
      checks: {
        type: 'object',
        required: ['storage', 'master', 'draining'],
        properties: {
          storage: {
            type: 'string',
            description:
              '"ok", or why the storage cannot take writes (closed, a full or read-only disk, PostgreSQL unreachable or read-only).',
          },
          master: { type: 'string', description: '"ok" once the master data is loaded.' },
          draining: {
            type: 'boolean',
            description:
              'True from the stop signal (SIGTERM) on: requests in flight finish, new ones should go elsewhere.',
          },
        },
      },
    },
  };
  const json = (schema: Schema) => ({ 'application/json': { schema } });
  const wrongMethod = {
    description:
      'A method other than GET or HEAD (the Allow header lists those), as for any known path: the error envelope with 102.',
    headers: { Allow: { description: 'The methods the path takes.', schema: { type: 'string' } } },
    content: json(ref('ErrorEnvelope')),
  };
  return {
    '/healthz': {
      get: {
        operationId: 'healthz',
        summary: 'Liveness: the process answers',
        tags: ['ops'],
        security: [],
        description:
          'Always 200 while the process runs and its event loop turns; for a liveness probe. Checks nothing else (see /readyz).',
        responses: {
          200: {
            description: 'Alive.',
            content: json({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }),
          },
          405: wrongMethod,
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        summary: 'Readiness: the server can serve',
        tags: ['ops'],
        security: [],
        description:
          "Ready when the storage is open and takes writes (a file can be written in DATA_DIR; PostgreSQL answers and is not read-only), the master data is loaded and the server is not stopping. For a load balancer's or an orchestrator's readiness probe.",
        responses: {
          200: { description: 'Ready.', content: json(checks) },
          405: wrongMethod,
          503: { description: 'Not ready: the checks say why.', content: json(checks) },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        tags: ['ops'],
        security: [{ metricsBearer: [] }, {}],
        description:
          "The Prometheus text format: hoshi_requests_total (by operation, result code and status), hoshi_request_duration_seconds, hoshi_rate_limited_total, hoshi_storage_commits_total and hoshi_storage_commit_duration_seconds, hoshi_storage_fsync_batch_commits, hoshi_storage_cache_total (hit, miss), hoshi_players_in_memory, hoshi_journal_bytes, hoshi_pg_pool_connections, and the process's (process_*, nodejs_*). Open unless the server has METRICS_TOKEN, then `Authorization: Bearer <METRICS_TOKEN>`; absent with METRICS=off.",
        responses: {
          200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: {
            description: 'METRICS_TOKEN is set and the request did not carry it.',
            content: json({ type: 'object', required: ['error'], properties: { error: { type: 'string' } } }),
          },
        },
      },
    },
  };
})();
