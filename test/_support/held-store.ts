// A JSON-file store whose fsyncs a test holds (`hold`, then `release` or `fail` the held one),
// counting the commits taken: the pipelined-commit tests of the store and of the service.
// Events are logged in order; nothing is timed.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';

/** A fresh directory, removed after the test. */
export const pipelinedDir = (t: ExecutionContext): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-pipelined-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

export const heldStore = async (t: ExecutionContext, dir = pipelinedDir(t)) => {
  const events: string[] = [];
  let go: ((ok: boolean) => void) | undefined;
  let holdNext = false;
  let onArrive: (() => void) | undefined;
  let taken = 0;
  let onTaken: (() => void) | undefined;
  const store = await FileStorage.open({
    dir,
    faults: {
      accepted: () => {
        taken++;
        onTaken?.();
      },
      sync: async (datasync) => {
        if (holdNext) {
          holdNext = false;
          const ok = await new Promise<boolean>((r) => {
            go = r;
            onArrive?.();
          });
          go = undefined;
          if (!ok) {
            events.push('sync failed');
            throw Object.assign(new Error('I/O error'), { code: 'EIO' });
          }
        }
        await datasync();
        events.push('synced');
      },
    },
  });
  t.teardown(() => store.close().catch(() => undefined));
  return {
    store,
    events,
    /** Holds the next fsync; resolves once a batch waits in it. */
    hold: () => {
      holdNext = true;
      return new Promise<void>((r) => {
        onArrive = r;
      });
    },
    release: () => go?.(true),
    fail: () => go?.(false),
    /** The commits taken so far. */
    count: () => taken,
    /** Resolves once `n` commits have been taken in all. */
    taken: (n: number) =>
      new Promise<void>((r) => {
        const check = () => {
          if (taken >= n) r();
        };
        onTaken = check;
        check();
      }),
  };
};
