// Reads master data from a directory: each master file is `<name>.json`, or a
// folder `<name>/` whose JSON arrays are joined in file-name order (so groups can
// keep their own part). Problems name the file and the field.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from 'io-ts';
import { buildMaster, masterFiles, type Master, type MasterProblem } from '../../core/master/index.js';

export const DEFAULT_FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export class MasterDataError extends Error {
  constructor(readonly dir: string, readonly problems: ReadonlyArray<MasterProblem>) {
    super(`master data in ${dir} is not valid:\n${problems.map((p) => `  ${p.file}: ${p.field}: ${p.message}`).join('\n')}`);
  }
}

const readJson = (path: string, file: string, problems: MasterProblem[]): unknown => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    problems.push({ file, field: '(file)', message: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
};

/** Loads and validates master data; throws MasterDataError listing every problem. */
export const loadMaster = (dir: string = DEFAULT_FIXTURES): Master => {
  const raw: Record<string, unknown> = {};
  const problems: MasterProblem[] = [];
  for (const name of Object.keys(masterFiles) as Array<keyof typeof masterFiles>) {
    const file = join(dir, `${name}.json`);
    const folder = join(dir, name);
    if (existsSync(file)) {
      raw[name] = readJson(file, `${name}.json`, problems);
    } else if (existsSync(folder) && statSync(folder).isDirectory()) {
      const parts = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
      const joined: unknown[] = [];
      for (const part of parts) {
        const label = `${name}/${part}`;
        const content = readJson(join(folder, part), label, problems);
        if (content === undefined) continue;
        // Check each part on its own first, so a problem names the part it is in.
        const check = (masterFiles[name] as t.Type<unknown>).decode(content);
        if (check._tag === 'Left' || !Array.isArray(content)) {
          const built = buildMaster({ [name]: content });
          const mine = built.ok ? [] : built.problems.filter((p) => p.file === `${name}.json`);
          problems.push(...(mine.length > 0 ? mine : [{ file: label, field: '(file)', message: 'must be a JSON array' }]).map((p) => ({ ...p, file: label })));
          continue;
        }
        joined.push(...content);
      }
      raw[name] = joined;
    } else {
      problems.push({ file: `${name}.json`, field: '(file)', message: 'file is missing' });
    }
  }
  if (problems.length > 0) throw new MasterDataError(dir, problems);
  const built = buildMaster(raw);
  if (!built.ok) throw new MasterDataError(dir, built.problems);
  return built.master;
};
