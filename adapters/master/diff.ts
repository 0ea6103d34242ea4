// What a new version of the game data changes against the one in force, per file
// and entry, in words an operator reads: "gachas.json: gacha 4 added", "gacha 3:
// cost.singleGem 150 → 200". Entries of a list are matched by their id field
// (gachaId, itemId …); other values are compared path by path.
import type { MasterFiles } from './load.js';

export interface FileDiff {
  readonly file: string;
  readonly changes: ReadonlyArray<string>;
}

/** A value as a change shows it: its JSON, cut to 60 characters. */
const shown = (v: unknown): string => {
  const s = v === undefined ? 'absent' : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The id field of a list of records: the first field named *Id (or `rarity`, `level`) every entry has. */
const idKeyOf = (list: ReadonlyArray<unknown>): string | undefined => {
  const first = list[0];
  if (!isRecord(first)) return undefined;
  const key = Object.keys(first).find((k) => /Id$/.test(k) || k === 'rarity' || k === 'level');
  return key !== undefined &&
    list.every((x) => isRecord(x) && (typeof x[key] === 'number' || typeof x[key] === 'string'))
    ? key
    : undefined;
};

/** The paths where two values differ, each with both values (lists compared whole). */
const pathChanges = (a: unknown, b: unknown, path: string, out: string[]): void => {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (isRecord(a) && isRecord(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      pathChanges(a[k], b[k], path === '' ? k : `${path}.${k}`, out);
    }
    return;
  }
  out.push(`${path === '' ? '(whole)' : path} ${shown(a)} → ${shown(b)}`);
};

/** A list's changes: entries added, removed and changed, by id. */
const listChanges = (before: ReadonlyArray<unknown>, after: ReadonlyArray<unknown>, key: string): string[] => {
  const noun = key.replace(/Id$/, '');
  const byId = (l: ReadonlyArray<unknown>) => new Map(l.map((x) => [String((x as Record<string, unknown>)[key]), x]));
  const was = byId(before);
  const now = byId(after);
  const out: string[] = [];
  for (const [id, x] of now) {
    const old = was.get(id);
    if (old === undefined) out.push(`${noun} ${id} added`);
    else {
      const fields: string[] = [];
      pathChanges(old, x, '', fields);
      out.push(...fields.map((f) => `${noun} ${id}: ${f}`));
    }
  }
  for (const id of was.keys()) if (!now.has(id)) out.push(`${noun} ${id} removed`);
  return out;
};

/** Every file that differs between two versions' files, with its changes. */
export const masterDiff = (before: MasterFiles, after: MasterFiles): FileDiff[] => {
  const files: FileDiff[] = [];
  for (const name of [...new Set([...Object.keys(before), ...Object.keys(after)])]) {
    const a = before[name];
    const b = after[name];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const key = Array.isArray(a) && Array.isArray(b) ? idKeyOf([...a, ...b]) : undefined;
    const changes: string[] = [];
    if (key !== undefined) changes.push(...listChanges(a as unknown[], b as unknown[], key));
    else pathChanges(a, b, '', changes);
    files.push({ file: `${name}.json`, changes });
  }
  return files;
};
