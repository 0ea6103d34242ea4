// The whole master set's decoded files, by file name. The groups' modules take only the
// files they read (FilesOf, common.ts), so none of them imports this one.
import type { FilesOf } from './common.js';
import type { baseFiles } from './base.js';
import type { progressionFiles } from './progression.js';
import type { townFiles } from './town.js';
import type { socialFiles } from './social.js';
import type { originalFiles } from './original.js';
import type { loginBonusFiles } from './loginBonus.js';

/** Every master file's decoded content, by file name. */
export type MasterFilesOf = FilesOf<
  typeof baseFiles &
    typeof progressionFiles &
    typeof townFiles &
    typeof socialFiles &
    typeof originalFiles &
    typeof loginBonusFiles
>;

export type { MasterProblem } from './common.js';
