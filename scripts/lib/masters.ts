// The master data a replay of a log needs, by hash: the versions a database keeps (`kept`),
// else the data directory's snapshot (DIR/master/<hash>.json, when `files`), else the
// bundled fixtures when they are that data.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadMaster, masterFromFiles, masterHashOf, readMasterSnapshot } from '../../adapters/master/load.js';
import type { Master } from '../../core/master/index.js';

/** A masterFor for replayLog: each hash loaded once. */
export const mastersOf = (
  dir: string,
  from: { readonly kept?: ReadonlyMap<string, unknown>; readonly files?: boolean } = {},
): ((hash: string) => Master) => {
  const masters = new Map<string, Master>();
  let fixtures: Master | undefined;
  return (hash) => {
    let m = masters.get(hash);
    if (m === undefined) {
      const kept = from.kept?.get(hash);
      if (kept !== undefined) m = masterFromFiles(kept as Record<string, unknown>);
      else if (from.files !== false && existsSync(join(dir, 'master', `${hash}.json`)))
        m = readMasterSnapshot(dir, hash);
      else {
        // No snapshot (a run without one): the bundled fixtures, if they are the same data.
        fixtures ??= loadMaster();
        if (masterHashOf(fixtures) !== hash) throw new Error(`no master snapshot ${hash} in ${join(dir, 'master')}`);
        m = fixtures;
      }
      masters.set(hash, m);
    }
    return m;
  };
};
