// Types shared by the master-data modules (kept apart to avoid import cycles).
import type * as t from 'io-ts';
import type { baseFiles } from './base.js';
import type { progressionFiles } from './progression.js';
import type { townFiles } from './town.js';
import type { socialFiles } from './social.js';
import type { originalFiles } from './original.js';

type AllFiles = typeof baseFiles & typeof progressionFiles & typeof townFiles & typeof socialFiles & typeof originalFiles;
/** Every master file's decoded content, by file name. */
export type MasterFilesOf = { [K in keyof AllFiles]: t.TypeOf<AllFiles[K]> };

export interface MasterProblem {
  readonly file: string;
  readonly field: string;
  readonly message: string;
}
