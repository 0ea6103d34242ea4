// The master data a replay of a data directory's log needs, by hash: the directory's
// snapshot (DIR/master/<hash>.json), else the bundled fixtures when they are that data.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadMaster, masterHashOf, readMasterSnapshot } from '../../adapters/master/load.js';
import type { Master } from '../../core/master/index.js';

/** A masterFor for replayLog: each hash loaded once. */
export const mastersOf = (dir: string): ((hash: string) => Master) => {
  const masters = new Map<string, Master>();
  let fixtures: Master | undefined;
  return (hash) => {
    let m = masters.get(hash);
    if (m === undefined) {
      if (existsSync(join(dir, 'master', `${hash}.json`))) m = readMasterSnapshot(dir, hash);
      else {
        fixtures ??= loadMaster();
        if (masterHashOf(fixtures) !== hash) throw new Error(`no master snapshot ${hash} in ${join(dir, 'master')}`);
        m = fixtures;
      }
      masters.set(hash, m);
    }
    return m;
  };
};
