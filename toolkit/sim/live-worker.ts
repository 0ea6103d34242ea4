// A worker thread of the live preview: rebuilds the two versions from their files and
// runs the (version, seed) runs it is given over the stored states, answering each
// run's result (the preview splits its runs over the machine's cores).
import { parentPort, workerData } from 'node:worker_threads';
import { masterFromFiles } from '../../adapters/master/load.js';
import { simulateFrom, type LiveWork } from './live.js';

const work = workerData as LiveWork;
const masters = [masterFromFiles(work.files[0]), masterFromFiles(work.files[1])] as const;
const results = work.tasks.map((t) =>
  simulateFrom(masters[t.version], work.config, { seed: t.seed, days: work.days, start: work.start }, work.states),
);
parentPort?.postMessage(results);
