// The operator API's health and master data: what GET /readyz and GET /metrics say,
// as figures the console draws (GET /admin/health), and which master data is
// loaded, since when (GET /admin/master).
import * as t from 'io-ts';
import type { Master } from '../../core/master/index.js';
import { formatTime } from '../../core/time.js';
import { masterSourceOf } from '../master/load.js';
import { MasterVersionsView } from './admin-master-codecs.js';
import type { GameService } from '../service/service.js';
import type { Metrics } from './metrics.js';
import { readiness, type Lifecycle } from './readiness.js';

const num = t.number;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const AdminHealthResponse = t.type(
  {
    /** GET /readyz's answer: ready, or which check failed. */
    ready: t.type(
      {
        status: t.keyof({ ready: null, 'not ready': null }),
        checks: t.type({ storage: t.string, master: t.string, draining: t.boolean }),
      },
      'AdminReadiness',
    ),
    /** From the registry GET /metrics writes; null when the server runs with METRICS=off. */
    metrics: nullable(
      t.type(
        {
          /** Requests by operation since the start, most first; errors: answered with a result code other than 0. */
          requests: t.array(t.type({ operation: t.string, total: num, errors: num })),
          commits: t.type({ ok: num, conflict: num, error: num }),
          /** Storage commits by latency bucket: at most upToSeconds (null: beyond the last bucket). */
          commitLatency: t.type({
            count: num,
            sumSeconds: num,
            buckets: t.array(t.type({ upToSeconds: nullable(num), count: num })),
          }),
          /** Player states held in memory; null when the storage does not tell. */
          playersInMemory: nullable(num),
          /** Bytes written to the journal since the last checkpoint (the JSON-file store); null for the others. */
          journalBytes: nullable(num),
        },
        'AdminMetricFigures',
      ),
    ),
  },
  'AdminHealthResponse',
);

export const AdminMasterResponse = t.type(
  {
    /** sha256 of the master files as read (the replay log names each entry's master data by it); null when not loaded from files. */
    hash: nullable(t.string),
    /** When this process loaded it, in the game's time zone (the wire's form); null as for hash. */
    loadedAt: nullable(t.string),
    /** The directory it was read from. */
    source: nullable(t.string),
    /** The game's time zone: minutes ahead of UTC. Every time in the answers is in it. */
    timezoneOffsetMinutes: num,
    /** How many gachas, characters and items it defines. */
    counts: t.type({ gachas: num, characters: num, items: num }),
    /** The versions: in force, scheduled and the history (POST /admin/master/versions and /admin/master/schedule). */
    versions: MasterVersionsView,
  },
  'AdminMasterResponse',
);

export const healthOf = async (
  service: GameService,
  lifecycle: Lifecycle,
  metrics: Metrics | undefined,
): Promise<t.TypeOf<typeof AdminHealthResponse>> => {
  const ready = await readiness(service, lifecycle);
  const m = metrics ? await metrics.figures() : null;
  return {
    ready: { status: ready.status, checks: { ...ready.checks } },
    metrics: m && {
      ...m,
      requests: [...m.requests],
      commitLatency: { ...m.commitLatency, buckets: [...m.commitLatency.buckets] },
    },
  };
};

export const masterOf = (
  m: Master,
  versions: t.TypeOf<typeof MasterVersionsView>,
): t.TypeOf<typeof AdminMasterResponse> => {
  const src = masterSourceOf(m);
  return {
    hash: src?.hash ?? null,
    loadedAt: src ? formatTime(src.loadedAt, m.game.timezoneOffsetMinutes) : null,
    source: src?.dir ?? null,
    timezoneOffsetMinutes: m.game.timezoneOffsetMinutes,
    counts: { gachas: m.gachas.length, characters: m.character.size, items: m.item.size },
    versions,
  };
};
