// Where a replayed state differs from a recorded one: the first differing path, both
// values there (cut short for a report) and every top-level field that differs.
import type { PlayerState } from '../../core/state.js';

/** A value as a difference shows it: its JSON, cut to 80 characters; `absent` for none. */
const shown = (v: unknown): string => {
  if (v === undefined) return 'absent';
  const j = JSON.stringify(v);
  return j.length > 80 ? `${j.slice(0, 77)}...` : j;
};

/**
 * The first place two JSON values differ, as a dotted path ('' for the values
 * themselves; object keys in sorted order, as canonical JSON writes them; list
 * elements by index, then the length), or null when they are equal.
 */
export const firstDifferingPath = (a: unknown, b: unknown): string | null => {
  const walk = (x: unknown, y: unknown, path: string): string | null => {
    if (x === y) return null;
    const join = (k: string | number) => (path === '' ? String(k) : `${path}.${k}`);
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const d = walk(x[i], y[i], join(i));
        if (d !== null) return d;
      }
      return x.length === y.length ? null : join(Math.min(x.length, y.length));
    }
    if (
      typeof x === 'object' &&
      x !== null &&
      typeof y === 'object' &&
      y !== null &&
      !Array.isArray(x) &&
      !Array.isArray(y)
    ) {
      const ox = x as Record<string, unknown>;
      const oy = y as Record<string, unknown>;
      for (const k of [...new Set([...Object.keys(ox), ...Object.keys(oy)])].sort()) {
        const d = walk(ox[k], oy[k], join(k));
        if (d !== null) return d;
      }
      return null;
    }
    return path;
  };
  return walk(a, b, '');
};

/** The value at a dotted path of firstDifferingPath (undefined when absent). */
const valueAt = (v: unknown, path: string): unknown =>
  path === ''
    ? v
    : path
        .split('.')
        .reduce<unknown>(
          (x, k) => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[k] : undefined),
          v,
        );

/** How two states differ, for a Difference or a report: the first path, both values there, and every field that differs. */
export const stateDifference = (
  replayed: PlayerState,
  recorded: PlayerState,
): { path: string; replayed: string; recorded: string; fields: string[] } | null => {
  const path = firstDifferingPath(replayed, recorded);
  if (path === null) return null;
  const a = replayed as unknown as Record<string, unknown>;
  const b = recorded as unknown as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .filter((k) => firstDifferingPath(a[k], b[k]) !== null);
  return { path, replayed: shown(valueAt(replayed, path)), recorded: shown(valueAt(recorded, path)), fields };
};
