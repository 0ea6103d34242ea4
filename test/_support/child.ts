// The real server as a child process: shared with the reliability harness (scripts/).
export { startChild, type Child } from '../../scripts/lib/server-process.js';
