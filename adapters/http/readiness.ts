// Whether the server can serve (GET /readyz, and the operator's health screen): the
// storage is open and takes writes, the master data is loaded, it is not shutting down.
import type { GameService } from '../service/service.js';

/** The server's state as main.ts sets it: draining from the stop signal on. */
export interface Lifecycle {
  draining: boolean;
}

export interface ReadyAnswer {
  readonly status: 'ready' | 'not ready';
  readonly checks: { readonly storage: string; readonly master: string; readonly draining: boolean };
}

/** The readiness checks, each "ok" or why not. */
export const readiness = async (service: GameService, lifecycle: Lifecycle): Promise<ReadyAnswer> => {
  const storage = (await service.storageProblem()) ?? 'ok';
  const master = service.masterAt(service.now()).master.character.size > 0 ? 'ok' : 'no master data';
  const ready = storage === 'ok' && master === 'ok' && !lifecycle.draining;
  return { status: ready ? 'ready' : 'not ready', checks: { storage, master, draining: lifecycle.draining } };
};
