// Plain SVG charts of a simulation's results: no library, deterministic output.
import type { SimResult } from '../../toolkit/sim/engine.js';

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const fmt = (x: number): string =>
  Math.abs(x) >= 1e6
    ? `${(x / 1e6).toFixed(1)}M`
    : Math.abs(x) >= 1e3
      ? `${(x / 1e3).toFixed(1)}k`
      : `${Math.round(x * 10) / 10}`;
const f1 = (x: number): string => (Math.round(x * 10) / 10).toString();

const W = 720;
const H = 360;
const M = { l: 64, r: 24, t: 52, b: 56 };

const frame = (title: string, body: string[]): string =>
  [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');

/**
 * A nice upper bound for an axis, close to the data: the next of 1, 1.2, 1.5, 2,
 * 2.5, 3, 4, 5, 6, 8, 10 times a power of ten at or above max (at most a quarter
 * of the axis left empty, where steps of 1, 2, 5 could leave half).
 */
export const top = (max: number): number => {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const k of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (k * p >= max * (1 - 1e-12)) return k * p;
  return 10 * p;
};

/** Grid lines and tick labels of a panel from x0 to x0 + width; the label left of the ticks. */
const yAxis = (maxY: number, label: string, x0 = M.l, width = W - M.l - M.r): string[] => {
  const out: string[] = [];
  const ph = H - M.t - M.b;
  for (let i = 0; i <= 4; i++) {
    const v = (maxY * i) / 4;
    const y = M.t + ph - (ph * i) / 4;
    out.push(`<line x1="${f1(x0)}" y1="${f1(y)}" x2="${f1(x0 + width)}" y2="${f1(y)}" stroke="#ddd"/>`);
    out.push(`<text x="${f1(x0 - 6)}" y="${f1(y + 4)}" text-anchor="end">${fmt(v)}</text>`);
  }
  if (label)
    out.push(
      `<text transform="translate(${f1(x0 - 50)} ${M.t + ph / 2}) rotate(-90)" text-anchor="middle">${esc(label)}</text>`,
    );
  return out;
};

interface Bar {
  readonly label: string;
  readonly value: number;
  readonly color: string;
}

const bars = (
  title: string,
  yLabel: string,
  xLabel: string,
  items: ReadonlyArray<Bar>,
  x0 = M.l,
  width = W - M.l - M.r,
): string[] => {
  const maxY = top(Math.max(0, ...items.map((b) => b.value)));
  const ph = H - M.t - M.b;
  const slot = width / Math.max(1, items.length);
  const out = yAxis(maxY, yLabel, x0, width);
  items.forEach((b, i) => {
    const h = (ph * b.value) / maxY;
    const x = x0 + i * slot + slot * 0.15;
    out.push(
      `<rect x="${f1(x)}" y="${f1(M.t + ph - h)}" width="${f1(slot * 0.7)}" height="${f1(h)}" fill="${b.color}"><title>${esc(`${b.label}: ${b.value}`)}</title></rect>`,
    );
    out.push(
      `<text x="${f1(x + slot * 0.35)}" y="${H - M.b + 16}" text-anchor="middle" font-size="${items.length > 6 ? 10 : 12}">${esc(b.label)}</text>`,
    );
  });
  out.push(`<text x="${f1(x0 + width / 2)}" y="${H - 14}" text-anchor="middle">${esc(xLabel)}</text>`);
  if (title)
    out.push(
      `<text x="${f1(x0 + width / 2)}" y="${M.t - 6}" text-anchor="middle" font-weight="bold">${esc(title)}</text>`,
    );
  return out;
};

const RARITY_COLOR: Record<string, string> = { '5': '#e0a400', '4': '#9b59b6', '3': '#3b7dd8' };

/** Draw outcomes: the draws by rarity (observed share), and players by draws needed to own the pickup. */
export const drawsChart = (r: SimResult): string => {
  const total = r.draws.total || 1;
  const rar = Object.keys(r.draws.byRarity)
    .sort()
    .reverse()
    .map((k) => ({
      label: `★${k} ${(((r.draws.byRarity[k] ?? 0) / total) * 100).toFixed(1)}%`,
      value: r.draws.byRarity[k] ?? 0,
      color: RARITY_COLOR[k] ?? '#888',
    }));
  const half = (W - M.l - M.r) / 2;
  // Ten bars at most: buckets of ten draws, the last one holding everything above.
  const h = r.drawsToPickup.histogram;
  const hist = h.slice(0, 10).map((v, i) => ({
    label: i === 9 && h.length > 10 ? '91+' : `≤${i * 10 + 10}`,
    value: i === 9 ? h.slice(9).reduce((x, y) => x + y, 0) : v,
    color: '#2a9d8f',
  }));
  const left = bars('Draws by rarity', 'draws', `${r.draws.total} draws`, rar, M.l, half - 40);
  const right = bars(
    `Draws needed to own pickup ${r.drawsToPickup.characterId ?? ''}`,
    'players',
    `draws needed (${r.drawsToPickup.notYet} of ${r.drawsToPickup.players} players: not yet)`,
    hist,
    M.l + half + 40,
    half - 40,
  );
  return frame(`Draw outcomes — seed ${r.params.seed}, ${r.params.players} players, ${r.params.days} days`, [
    ...left,
    ...right,
  ]);
};

/**
 * Gem flow: gems the population has earned and spent so far (cumulative, so the
 * welcome spike of day one does not flatten the rest), and gems held, by day.
 */
export const currencyChart = (r: SimResult): string => {
  let earned = 0;
  let spent = 0;
  const days = r.daily.map((d) => {
    earned += d.gemsEarned;
    spent += d.gemsSpent;
    return { day: d.day, earned, spent, held: d.gemsHeld };
  });
  type Row = (typeof days)[number];
  const series = [
    { name: 'earned so far', color: '#2a9d8f', get: (d: Row) => d.earned },
    { name: 'spent so far', color: '#e76f51', get: (d: Row) => d.spent },
    { name: 'held', color: '#264653', get: (d: Row) => d.held },
  ];
  const maxY = top(Math.max(0, ...days.flatMap((d) => series.map((s) => s.get(d)))));
  const pw = W - M.l - M.r;
  const ph = H - M.t - M.b;
  const x = (i: number) => M.l + (days.length <= 1 ? pw / 2 : (pw * i) / (days.length - 1));
  const y = (v: number) => M.t + ph - (ph * v) / maxY;
  const out = yAxis(maxY, 'gems, whole population');
  for (const s of series) {
    const pts = days.map((d, i) => `${f1(x(i))},${f1(y(s.get(d)))}`).join(' ');
    out.push(`<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
  }
  const every = Math.max(1, Math.ceil(days.length / 15));
  days.forEach((d, i) => {
    if (i % every === 0 || i === days.length - 1)
      out.push(`<text x="${f1(x(i))}" y="${H - M.b + 16}" text-anchor="middle">${d.day}</text>`);
  });
  out.push(`<text x="${M.l + pw / 2}" y="${H - 14}" text-anchor="middle">day</text>`);
  series.forEach((s, i) => {
    out.push(`<rect x="${M.l + 10 + i * 130}" y="${M.t - 22}" width="12" height="12" fill="${s.color}"/>`);
    out.push(`<text x="${M.l + 26 + i * 130}" y="${M.t - 12}">${esc(s.name)}</text>`);
  });
  return frame(`Gem flow (free + paid), cumulative — seed ${r.params.seed}, ${r.params.players} players`, out);
};
