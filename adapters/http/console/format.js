// How the console writes numbers and times. Stored times are milliseconds since the
// epoch; the console shows them as the answers do: 2026-12-31T23:59:59 in the game's
// time zone (GET /admin/master's timezoneOffsetMinutes).
export const wireTime = (ms, offsetMinutes) =>
  ms === null || ms === undefined ? '—' : new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
export const int = (n) => (n === null || n === undefined ? '—' : Number(n).toLocaleString('en-US'));
export const percent = (p, digits = 2) => `${(p * 100).toFixed(digits)}%`;
export const bytes = (n) => {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
};
export const seconds = (s) =>
  s === null ? 'slower' : s < 0.001 ? `${s * 1e6} µs` : s < 1 ? `${+(s * 1000).toFixed(1)} ms` : `${s} s`;

const CURRENCIES = new Set(['gold', 'gem', 'paidGem', 'kirara']);
/**
 * GET /admin/master/names as a namer: named('item', 9001) is "Prism Shard (9001)"; an
 * id the game data lacks stays an id, marked. grant(g) writes a grant: "5,000 gold",
 * "Prism Shard (item 9001) × 10".
 */
export const namer = (answer) => {
  const maps = new Map(
    ['character', 'weapon', 'item', 'townFacility', 'roomObject'].map((k) => [
      k,
      new Map(answer[k].map((x) => [x.id, x.name])),
    ]),
  );
  const nameOf = (kind, id) => maps.get(kind)?.get(id);
  return {
    nameOf,
    named: (kind, id) => `${nameOf(kind, id) ?? 'not in the game data'} (${id})`,
    grant: (g) =>
      CURRENCIES.has(g.kind)
        ? `${int(g.amount)} ${g.kind}`
        : `${nameOf(g.kind, g.objectId) ?? 'not in the game data'} (${g.kind} ${g.objectId}) × ${int(g.amount)}`,
  };
};
