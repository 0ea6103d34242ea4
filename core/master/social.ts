// Master data of the social and adventure group (quests, achievements, chests, offers).
import type { MasterFilesOf, MasterProblem } from './types.js';
export const socialFiles = {};

/**
 * Indexes and cross-checks of this group's files, built once at start-up. Push a
 * problem (file, field, message) for anything that does not fit; the result is
 * merged into Master.
 */
export const indexSocial = (_f: MasterFilesOf, _problems: MasterProblem[]) => ({});
