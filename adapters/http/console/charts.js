// Small SVG charts, drawn from the figures the API answers. Each is an image with
// a title for screen readers; the screens put the same figures in a table beside it.
const NS = 'http://www.w3.org/2000/svg';

const s = (tag, attrs = {}, ...children) => {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
};

const frame = (title, width, height) => {
  const svg = s('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': title,
  });
  svg.append(s('title', {}, title));
  return svg;
};

/**
 * Horizontal bars, a row an item: `a` the main figure, `b` (optional) a part of it
 * drawn over it in the second colour (errors of requests, observed beside published).
 */
export const bars = (title, items, { format = String, paired = false } = {}) => {
  const row = paired ? 30 : 22;
  const label = 210;
  const width = 720;
  const plot = width - label - 90;
  const height = Math.max(row, items.length * row) + 6;
  const max = Math.max(1e-12, ...items.flatMap((x) => [x.a, x.b ?? 0]));
  const svg = frame(title, width, height);
  items.forEach((x, i) => {
    const y = i * row + 3;
    svg.append(
      s(
        'text',
        { x: label - 8, y: y + 14, 'text-anchor': 'end' },
        x.label.length > 30 ? `${x.label.slice(0, 29)}…` : x.label,
      ),
    );
    if (paired) {
      svg.append(s('rect', { class: 'bar', x: label, y, width: Math.max(1, (x.a / max) * plot), height: 12 }));
      svg.append(
        s('rect', {
          class: 'bar2',
          x: label,
          y: y + 13,
          width: Math.max(x.b > 0 ? 1 : 0, ((x.b ?? 0) / max) * plot),
          height: 12,
        }),
      );
      svg.append(s('text', { x: label + plot + 6, y: y + 10 }, format(x.a)));
      svg.append(s('text', { x: label + plot + 6, y: y + 24 }, format(x.b ?? 0)));
    } else {
      svg.append(
        s('rect', { class: 'bar', x: label, y, width: Math.max(x.a > 0 ? 1 : 0, (x.a / max) * plot), height: 16 }),
      );
      if (x.b)
        svg.append(s('rect', { class: 'bar2', x: label, y, width: Math.max(1, (x.b / max) * plot), height: 16 }));
      svg.append(s('text', { x: label + plot + 6, y: y + 13 }, x.b ? `${format(x.a)} (${format(x.b)})` : format(x.a)));
    }
  });
  return svg;
};

/** Vertical columns (a histogram): one per bucket, its label under it. */
export const columns = (title, items, { format = String } = {}) => {
  const col = 56;
  const width = Math.max(240, items.length * col + 20);
  const height = 150;
  const plot = 100;
  const max = Math.max(1, ...items.map((x) => x.value));
  const svg = frame(title, width, height);
  svg.append(s('line', { class: 'axis', x1: 10, x2: width - 10, y1: plot + 18, y2: plot + 18 }));
  items.forEach((x, i) => {
    const hgt = (x.value / max) * plot;
    const cx = 10 + i * col;
    svg.append(s('rect', { class: 'bar', x: cx + 8, y: plot + 18 - hgt, width: col - 16, height: hgt }));
    svg.append(s('text', { x: cx + col / 2, y: plot + 14 - hgt, 'text-anchor': 'middle' }, format(x.value)));
    svg.append(s('text', { x: cx + col / 2, y: plot + 34, 'text-anchor': 'middle' }, x.label));
  });
  return svg;
};

/** A line over time: the values read at each refresh, oldest first. */
export const line = (title, values, { format = String } = {}) => {
  const width = 320;
  const height = 90;
  const svg = frame(title, width, height);
  const max = Math.max(1, ...values);
  const min = Math.min(0, ...values);
  const x = (i) => 8 + (values.length <= 1 ? 0 : (i * (width - 16)) / (values.length - 1));
  const y = (v) => 70 - ((v - min) / (max - min || 1)) * 60;
  svg.append(s('line', { class: 'axis', x1: 8, x2: width - 8, y1: 70, y2: 70 }));
  if (values.length > 0)
    svg.append(s('polyline', { class: 'line', points: values.map((v, i) => `${x(i)},${y(v)}`).join(' ') }));
  svg.append(
    s(
      'text',
      { x: 8, y: 86 },
      values.length === 0
        ? 'no reading yet'
        : `now ${format(values[values.length - 1])}, highest ${format(max)} (${values.length} readings)`,
    ),
  );
  return svg;
};
