// The report's charts, plain SVG written by hand (deterministic output): every axis
// scaled to its own data (svg.ts `top`, or a range around the values), the
// published rates against the observed ones, per-profile p10–p90 bands, and a
// comparison's differences with their confidence intervals.
import { esc, fmt, top } from './svg.js';

const f1 = (x: number): string => (Math.round(x * 10) / 10).toString();
export const PALETTE = ['#2a9d8f', '#e76f51', '#264653', '#e9c46a', '#8e44ad', '#3b7dd8', '#c0392b', '#7f8c8d'];
const SET_COLOR: Record<string, string> = { A: '#3b7dd8', B: '#e76f51' };
export const colorOfSet = (name: string, i: number): string =>
  SET_COLOR[name] ?? (PALETTE[i % PALETTE.length] as string);

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

const svg = (w: number, h: number, title: string, body: string[]): string =>
  [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`,
    `<rect width="${w}" height="${h}" fill="#fff"/>`,
    `<text x="${w / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...body,
    '</svg>',
  ].join('\n');

/** Nice ticks for a range [lo, hi]: about five, at round steps. */
export const ticks = (lo: number, hi: number): number[] => {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((k) => k * p >= raw) ?? 10) * p;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    out.push(Math.round(v / step) * step);
  return out;
};

/** A y range around values (not from zero): padded a tenth each side, snapped to the ticks' step. */
export const rangeAround = (values: ReadonlyArray<number>): [number, number] => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.1 || Math.abs(hi) * 0.05 || 1;
  const t = ticks(lo - pad, hi + pad);
  const step = t.length > 1 ? (t[1] as number) - (t[0] as number) : pad;
  return [Math.floor((lo - pad) / step) * step, Math.ceil((hi + pad) / step) * step];
};

const yGrid = (
  b: Box,
  lo: number,
  hi: number,
  format: (v: number) => string,
  label = '',
): { y: (v: number) => number; out: string[] } => {
  const y = (v: number) => b.y + b.h - ((v - lo) / (hi - lo || 1)) * b.h;
  const out: string[] = [];
  for (const v of ticks(lo, hi)) {
    out.push(`<line x1="${f1(b.x)}" y1="${f1(y(v))}" x2="${f1(b.x + b.w)}" y2="${f1(y(v))}" stroke="#ddd"/>`);
    out.push(`<text x="${f1(b.x - 6)}" y="${f1(y(v) + 4)}" text-anchor="end">${esc(format(v))}</text>`);
  }
  if (label)
    out.push(
      `<text transform="translate(${f1(b.x - 52)} ${f1(b.y + b.h / 2)}) rotate(-90)" text-anchor="middle">${esc(label)}</text>`,
    );
  return { y, out };
};

const pct = (v: number, d = 2) => `${(v * 100).toFixed(d)}%`;

/** One set of draws: the observed share and the published rate (with its band) of each rarity. */
export interface RateSet {
  readonly name: string;
  readonly observed: Readonly<Record<string, number>>;
  readonly published: Readonly<Record<string, number>>;
  readonly band: Readonly<Record<string, number>>;
}

/**
 * Published against observed, a panel per rarity with its own y range: the published
 * rate (grey diamond) with its 99.9% band (whisker), the observed share (a dot in the
 * set's colour), for each set side by side.
 */
export const ratesChart = (title: string, sets: ReadonlyArray<RateSet>): string => {
  const rarities = [...new Set(sets.flatMap((s) => Object.keys(s.published)))].sort().reverse();
  const pw = 200;
  const W = 70 + rarities.length * (pw + 70);
  const H = 320;
  const out: string[] = [];
  rarities.forEach((r, i) => {
    const b: Box = { x: 80 + i * (pw + 70), y: 60, w: pw, h: 200 };
    const vals = sets.flatMap((s) => [
      s.observed[r] ?? 0,
      (s.published[r] ?? 0) - (s.band[r] ?? 0),
      (s.published[r] ?? 0) + (s.band[r] ?? 0),
    ]);
    const [lo, hi] = rangeAround(vals);
    const g = yGrid(b, Math.max(0, lo), hi, (v) => pct(v, v < 0.1 ? 2 : 1), i === 0 ? 'share of draws' : '');
    out.push(
      ...g.out,
      `<text x="${f1(b.x + b.w / 2)}" y="${b.y - 10}" text-anchor="middle" font-weight="bold">★${esc(r)}</text>`,
    );
    const slot = b.w / Math.max(1, sets.length);
    sets.forEach((s, j) => {
      const cx = b.x + slot * (j + 0.5);
      const p = s.published[r] ?? 0;
      const band = s.band[r] ?? 0;
      const o = s.observed[r] ?? 0;
      out.push(
        `<line x1="${f1(cx - 10)}" y1="${f1(g.y(p - band))}" x2="${f1(cx + 10)}" y2="${f1(g.y(p - band))}" stroke="#888"/>`,
      );
      out.push(
        `<line x1="${f1(cx - 10)}" y1="${f1(g.y(p + band))}" x2="${f1(cx + 10)}" y2="${f1(g.y(p + band))}" stroke="#888"/>`,
      );
      out.push(
        `<line x1="${f1(cx)}" y1="${f1(g.y(p - band))}" x2="${f1(cx)}" y2="${f1(g.y(p + band))}" stroke="#888"/>`,
      );
      out.push(
        `<path d="M${f1(cx - 12)} ${f1(g.y(p))} l6 -6 l6 6 l-6 6 z" fill="#bbb" stroke="#666"><title>${esc(`${s.name} ★${r} published ${pct(p, 3)} ± ${pct(band, 3)}`)}</title></path>`,
      );
      out.push(
        `<circle cx="${f1(cx + 6)}" cy="${f1(g.y(o))}" r="5" fill="${colorOfSet(s.name, j)}"><title>${esc(`${s.name} ★${r} observed ${pct(o, 3)}`)}</title></circle>`,
      );
      out.push(`<text x="${f1(cx)}" y="${b.y + b.h + 16}" text-anchor="middle">${esc(s.name)}</text>`);
    });
  });
  out.push(
    `<text x="80" y="${H - 16}">◆ published (box/get, for the single and ten-draw pulls made) with its 99.9% band · ● observed</text>`,
  );
  return svg(W, H, title, out);
};

/** A quantity's percentile band over days: one per series (a profile, or a profile in set A or B). */
export interface BandSeries {
  readonly name: string;
  readonly color: string;
  readonly p10: ReadonlyArray<number>;
  readonly p50: ReadonlyArray<number>;
  readonly p90: ReadonlyArray<number>;
  readonly dashed?: boolean;
}

/** p10–p90 bands (shaded) and medians (lines) by day, the y axis from 0 to just above the highest p90. */
export const bandsChart = (
  title: string,
  yLabel: string,
  days: ReadonlyArray<number>,
  series: ReadonlyArray<BandSeries>,
): string => {
  const W = 720;
  const H = 340;
  const b: Box = { x: 72, y: 56, w: W - 72 - 150, h: H - 56 - 50 };
  const maxY = top(Math.max(0, ...series.flatMap((s) => [...s.p90])));
  const g = yGrid(b, 0, maxY, fmt, yLabel);
  const x = (i: number) => b.x + (days.length <= 1 ? b.w / 2 : (b.w * i) / (days.length - 1));
  const out = [...g.out];
  for (const s of series) {
    const upper = s.p90.map((v, i) => `${f1(x(i))},${f1(g.y(v))}`);
    const lower = s.p10.map((v, i) => `${f1(x(i))},${f1(g.y(v))}`).reverse();
    out.push(
      `<polygon points="${[...upper, ...lower].join(' ')}" fill="${s.color}" fill-opacity="0.18" stroke="none"/>`,
    );
    out.push(
      `<polyline points="${s.p50.map((v, i) => `${f1(x(i))},${f1(g.y(v))}`).join(' ')}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 3"' : ''}/>`,
    );
  }
  const every = Math.max(1, Math.ceil(days.length / 15));
  days.forEach((d, i) => {
    if ((i % every === 0 && days.length - 1 - i >= every / 2) || i === days.length - 1)
      out.push(`<text x="${f1(x(i))}" y="${b.y + b.h + 16}" text-anchor="middle">${d}</text>`);
  });
  out.push(
    `<text x="${f1(b.x + b.w / 2)}" y="${H - 10}" text-anchor="middle">day (line: median; band: 10th to 90th percentile of the profile's players)</text>`,
  );
  series.forEach((s, i) => {
    out.push(
      `<rect x="${b.x + b.w + 16}" y="${b.y + i * 18}" width="12" height="12" fill="${s.color}" fill-opacity="${s.dashed ? 0.4 : 0.8}"/>`,
    );
    out.push(`<text x="${b.x + b.w + 32}" y="${b.y + i * 18 + 10}">${esc(s.name)}</text>`);
  });
  return svg(W, H, title, out);
};

/** A comparison's rows for the difference chart. */
export interface DiffRow {
  readonly label: string;
  readonly a: number;
  readonly diff: number;
  readonly low: number | null;
  readonly high: number | null;
  /** The difference survives the comparison's multiple-comparison correction. */
  readonly marked: boolean;
}

/**
 * Each metric's difference B − A relative to A, with its 95% interval as a whisker;
 * the x axis symmetric around 0, scaled to the largest interval end.
 */
export const diffChart = (title: string, rows: ReadonlyArray<DiffRow>): string => {
  const W = 760;
  const rowH = 20;
  const b: Box = { x: 300, y: 50, w: W - 300 - 40, h: Math.max(rowH, rows.length * rowH) };
  const H = b.y + b.h + 50;
  const rel = (v: number, a: number) => (a === 0 ? 0 : v / Math.abs(a));
  const ext = Math.max(
    1e-9,
    ...rows.flatMap((r) => [rel(r.diff, r.a), rel(r.low ?? r.diff, r.a), rel(r.high ?? r.diff, r.a)].map(Math.abs)),
  );
  const span = top(ext);
  const x = (v: number) => b.x + ((v + span) / (2 * span)) * b.w;
  const out: string[] = [];
  for (const v of ticks(-span, span)) {
    out.push(
      `<line x1="${f1(x(v))}" y1="${b.y}" x2="${f1(x(v))}" y2="${b.y + b.h}" stroke="${v === 0 ? '#444' : '#ddd'}"/>`,
    );
    out.push(
      `<text x="${f1(x(v))}" y="${b.y + b.h + 16}" text-anchor="middle">${esc(`${v > 0 ? '+' : ''}${Math.round(v * 1000) / 10}%`)}</text>`,
    );
  }
  rows.forEach((r, i) => {
    const cy = b.y + i * rowH + rowH / 2;
    const sig = r.marked;
    out.push(`<text x="${b.x - 8}" y="${f1(cy + 4)}" text-anchor="end">${esc(r.label)}</text>`);
    if (r.low !== null && r.high !== null)
      out.push(
        `<line x1="${f1(x(rel(r.low, r.a)))}" y1="${f1(cy)}" x2="${f1(x(rel(r.high, r.a)))}" y2="${f1(cy)}" stroke="#888" stroke-width="2"/>`,
      );
    out.push(
      `<circle cx="${f1(x(rel(r.diff, r.a)))}" cy="${f1(cy)}" r="4" fill="${sig ? '#e76f51' : '#3b7dd8'}"><title>${esc(`${r.label}: ${fmt(r.diff)}`)}</title></circle>`,
    );
  });
  out.push(
    `<text x="${f1(b.x + b.w / 2)}" y="${H - 12}" text-anchor="middle">(B − A) / A, with the 95% interval over seeds (red: marked, surviving the Benjamini–Hochberg correction)</text>`,
  );
  return svg(W, H, title, out);
};

/** End-of-run percentile ranges per profile: a bar from p10 to p90 with a tick at the median, for each set. */
export const rangesChart = (
  title: string,
  yLabel: string,
  groups: ReadonlyArray<{
    readonly label: string;
    readonly sets: ReadonlyArray<{
      readonly name: string;
      readonly p10: number;
      readonly p50: number;
      readonly p90: number;
    }>;
  }>,
): string => {
  const W = 720;
  const H = 320;
  const b: Box = { x: 72, y: 56, w: W - 72 - 30, h: H - 56 - 56 };
  const maxY = top(Math.max(0, ...groups.flatMap((g) => g.sets.map((s) => s.p90))));
  const g = yGrid(b, 0, maxY, fmt, yLabel);
  const out = [...g.out];
  const slot = b.w / Math.max(1, groups.length);
  groups.forEach((gr, i) => {
    const inner = (slot * 0.7) / Math.max(1, gr.sets.length);
    gr.sets.forEach((s, j) => {
      const x0 = b.x + i * slot + slot * 0.15 + j * inner;
      const c = colorOfSet(s.name, j);
      out.push(
        `<rect x="${f1(x0 + inner * 0.15)}" y="${f1(g.y(s.p90))}" width="${f1(inner * 0.7)}" height="${f1(Math.max(1, g.y(s.p10) - g.y(s.p90)))}" fill="${c}" fill-opacity="0.35" stroke="${c}"><title>${esc(`${gr.label} ${s.name}: p10 ${fmt(s.p10)}, median ${fmt(s.p50)}, p90 ${fmt(s.p90)}`)}</title></rect>`,
      );
      out.push(
        `<line x1="${f1(x0 + inner * 0.1)}" y1="${f1(g.y(s.p50))}" x2="${f1(x0 + inner * 0.9)}" y2="${f1(g.y(s.p50))}" stroke="${c}" stroke-width="3"/>`,
      );
      if (gr.sets.length > 1)
        out.push(
          `<text x="${f1(x0 + inner / 2)}" y="${b.y + b.h + 14}" text-anchor="middle" font-size="10">${esc(s.name)}</text>`,
        );
    });
    out.push(
      `<text x="${f1(b.x + i * slot + slot / 2)}" y="${b.y + b.h + (gr.sets.length > 1 ? 30 : 16)}" text-anchor="middle">${esc(gr.label)}</text>`,
    );
  });
  out.push(
    `<text x="${f1(b.x + b.w / 2)}" y="${H - 8}" text-anchor="middle">bar: 10th to 90th percentile of the profile's players at the end; thick line: median</text>`,
  );
  return svg(W, H, title, out);
};
