// Reads master data from a directory: each master file is `<name>.json`, or a
// folder `<name>/` whose JSON arrays are joined in file-name order (so groups can
// keep their own part). Problems name the file and the field. Master data of an
// older shape loads: a file or field added later and absent gets its default
// (core/master/defaults.ts); the hash and a snapshot cover the files as read.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as t from 'io-ts';
import { buildMaster, masterFiles, type Master, type MasterProblem } from '../../core/master/index.js';
import { FILE_DEFAULTS, fillFileDefaults } from '../../core/master/defaults.js';

/**
 * The bundled fixtures at the repository's root: two levels up from this file when
 * it runs as TypeScript (adapters/master/), three from the compiled copy
 * (dist/adapters/master/).
 */
export const DEFAULT_FIXTURES =
  ['../../fixtures/', '../../../fixtures/']
    .map((rel) => fileURLToPath(new URL(rel, import.meta.url)))
    .find((dir) => existsSync(join(dir, 'characters.json'))) ??
  fileURLToPath(new URL('../../fixtures/', import.meta.url));

export class MasterDataError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: ReadonlyArray<MasterProblem>,
  ) {
    super(
      `master data in ${dir} is not valid:\n${problems.map((p) => `  ${p.file}: ${p.field}: ${p.message}`).join('\n')}`,
    );
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

/** The decoded files a Master was built from, by file name: what its hash covers and a snapshot holds. */
export type MasterFiles = Record<string, unknown>;

/** sha256 of the decoded master files' JSON (in the order of masterFiles): names the master data a log entry ran with. */
export const hashMasterFiles = (raw: MasterFiles): string =>
  createHash('sha256').update(JSON.stringify(raw), 'utf8').digest('hex');

/** Where a Master came from: its files, their hash, when it was built (the wall clock) and the directory read ('(snapshot)' for files given). */
export interface MasterSource {
  readonly raw: MasterFiles;
  readonly hash: string;
  readonly loadedAt: number;
  readonly dir: string;
}
const sources = new WeakMap<Master, MasterSource>();

/** The files and hash a Master was loaded from, and when (undefined for one built otherwise). */
export const masterSourceOf = (m: Master): MasterSource | undefined => sources.get(m);

/** The hash of a Master loaded here (or built by masterFromFiles); undefined for one built otherwise. */
export const masterHashOf = (m: Master): string | undefined => sources.get(m)?.hash;

/** Builds master data from decoded files (a snapshot), remembering its hash. */
export const masterFromFiles = (raw: MasterFiles): Master => {
  const built = buildMaster(raw);
  if (!built.ok) throw new MasterDataError('(snapshot)', built.problems);
  sources.set(built.master, { raw, hash: hashMasterFiles(raw), loadedAt: Date.now(), dir: '(snapshot)' });
  return built.master;
};

/**
 * Keeps a copy of a loaded Master's files as DIR/master/<hash>.json (if missing),
 * so a replay can load the master data each log entry saw. Returns the hash.
 */
export const writeMasterSnapshot = (dataDir: string, m: Master): string | undefined => {
  const src = sources.get(m);
  if (!src) return undefined;
  const dir = join(dataDir, 'master');
  const path = join(dir, `${src.hash}.json`);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(src.raw));
    renameSync(`${path}.tmp`, path);
  }
  return src.hash;
};

/** Reads the snapshot DIR/master/<hash>.json written by writeMasterSnapshot. */
export const readMasterSnapshot = (dataDir: string, hash: string): Master =>
  masterFromFiles(JSON.parse(readFileSync(join(dataDir, 'master', `${hash}.json`), 'utf8')) as MasterFiles);

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
      const parts = readdirSync(folder)
        .filter((f) => f.endsWith('.json'))
        .sort();
      const joined: unknown[] = [];
      for (const part of parts) {
        const label = `${name}/${part}`;
        const content = readJson(join(folder, part), label, problems);
        if (content === undefined) continue;
        // Check each part on its own first, so a problem names the part it is in.
        const check = (masterFiles[name] as t.Type<unknown>).decode(fillFileDefaults(name, content));
        if (check._tag === 'Left' || !Array.isArray(content)) {
          const built = buildMaster({ [name]: content });
          const mine = built.ok ? [] : built.problems.filter((p) => p.file === `${name}.json`);
          problems.push(
            ...(mine.length > 0 ? mine : [{ file: label, field: '(file)', message: 'must be a JSON array' }]).map(
              (p) => ({ ...p, file: label }),
            ),
          );
          continue;
        }
        joined.push(...content);
      }
      raw[name] = joined;
    } else if (!(name in FILE_DEFAULTS)) {
      // A file added later (FILE_DEFAULTS) may be absent: buildMaster fills its default.
      problems.push({ file: `${name}.json`, field: '(file)', message: 'file is missing' });
    }
  }
  if (problems.length > 0) throw new MasterDataError(dir, problems);
  const built = buildMaster(raw);
  if (!built.ok) throw new MasterDataError(dir, built.problems);
  sources.set(built.master, { raw, hash: hashMasterFiles(raw), loadedAt: Date.now(), dir });
  return built.master;
};
