// The simulation's behaviour profiles live in the toolkit (toolkit/profiles.ts, the
// data in toolkit/profiles.json); re-exported here for the sim's own modules.
export * from '../profiles.js';
