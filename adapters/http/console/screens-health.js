// Health (what /readyz and /metrics say, in words and small charts, refreshed every
// few seconds) and the master data loaded.
import { api } from './api.js';
import { facts, h, table } from './dom.js';
import { bars, columns, line } from './charts.js';
import { bytes, int, seconds } from './format.js';

const REFRESH_MS = 5000;
/** Readings kept while the page is open, for the lines over time. */
const readings = { players: [], journal: [], requests: [] };
const KEEP = 60;
const keep = (list, v) => {
  if (v !== null) {
    list.push(v);
    if (list.length > KEEP) list.shift();
  }
};

const readiness = (ready) => {
  const c = ready.checks;
  const problems = [
    c.storage !== 'ok' ? `the storage cannot take writes: ${c.storage}` : '',
    c.master !== 'ok' ? `master data: ${c.master}` : '',
    c.draining ? 'the server is stopping (draining)' : '',
  ].filter(Boolean);
  return ready.status === 'ready'
    ? h(
        'p',
        { class: 'ok', id: 'readiness' },
        'Ready: the storage takes writes, the master data is loaded and the server is not stopping.',
      )
    : h('p', { class: 'bad', id: 'readiness' }, `Not ready: ${problems.join('; ')}.`);
};

const render = (health) => {
  const m = health.metrics;
  if (!m)
    return h(
      'div',
      {},
      readiness(health.ready),
      h('p', { class: 'note' }, 'The server runs with METRICS=off: no figures to show.'),
    );
  keep(readings.players, m.playersInMemory);
  keep(readings.journal, m.journalBytes);
  const total = m.requests.reduce((s, r) => s + r.total, 0);
  const errors = m.requests.reduce((s, r) => s + r.errors, 0);
  keep(readings.requests, total);
  const shown = m.requests.slice(0, 15);
  const last = m.commitLatency.buckets.reduce((i, b, j) => (b.count > 0 ? j : i), 0);
  const buckets = m.commitLatency.buckets.slice(0, Math.max(last + 1, 4));
  const mean = m.commitLatency.count ? m.commitLatency.sumSeconds / m.commitLatency.count : null;
  const card = (label, value, chart) =>
    h('div', { class: 'card' }, h('div', { class: 'note' }, label), h('div', { class: 'big' }, value), chart);
  return h(
    'div',
    {},
    readiness(health.ready),
    h(
      'div',
      { class: 'cards' },
      card(
        'Requests since start',
        int(total),
        h('div', { class: errors ? 'warn' : 'note' }, `${int(errors)} answered with an error`),
      ),
      card(
        'Players in memory',
        int(m.playersInMemory),
        line("Players in memory over this page's readings", readings.players, { format: int }),
      ),
      card(
        'Journal since the last checkpoint',
        m.journalBytes === null ? 'no journal' : bytes(m.journalBytes),
        m.journalBytes === null
          ? h('div', { class: 'note' }, 'This storage keeps none (PostgreSQL or memory).')
          : line("Journal bytes over this page's readings", readings.journal, { format: bytes }),
      ),
      card(
        'Storage commits',
        int(m.commits.ok),
        h(
          'div',
          { class: m.commits.error ? 'bad' : 'note' },
          `${int(m.commits.conflict)} conflicts (retried), ${int(m.commits.error)} failed`,
        ),
      ),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'requests-h' },
      h('h2', { id: 'requests-h' }, 'Requests and errors by operation'),
      h(
        'div',
        { class: 'legend' },
        h('span', {}, h('span', { class: 'swatch a' }), 'requests'),
        h('span', {}, h('span', { class: 'swatch b' }), 'errors (a result code other than 0)'),
      ),
      shown.length
        ? bars(
            `Requests and errors of the ${shown.length} busiest operations`,
            shown.map((r) => ({ label: r.operation, a: r.total, b: r.errors })),
            { format: int, paired: true },
          )
        : h('p', { class: 'note' }, 'No request yet.'),
      h(
        'details',
        {},
        h('summary', {}, `Every operation as a table (${m.requests.length})`),
        table(
          'Requests by operation since the start',
          ['Operation', 'Requests', 'Errors'],
          m.requests.map((r) => [r.operation, int(r.total), int(r.errors)]),
          { numeric: [1, 2] },
        ),
      ),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'latency-h' },
      h('h2', { id: 'latency-h' }, 'Commit latency'),
      h(
        'p',
        {},
        m.commitLatency.count
          ? `${int(m.commitLatency.count)} commits, ${seconds(mean)} on average (to durable).`
          : 'No commit yet.',
      ),
      columns(
        'Storage commits by how long they took',
        buckets.map((b) => ({ label: b.upToSeconds === null ? 'more' : `≤${seconds(b.upToSeconds)}`, value: b.count })),
        { format: int },
      ),
    ),
  );
};

export const healthScreen = async (ctx) => {
  const body = h('div', { 'aria-live': 'off' }, render(await api('GET', '/admin/health')));
  const stamp = h('span', {}, `Read at ${new Date().toLocaleTimeString()}.`);
  const refresh = async () => {
    try {
      const health = await api('GET', '/admin/health');
      // A refresh keeps what the operator opened and where the focus was (the table's summary).
      const open = body.querySelector('details')?.open ?? false;
      const focused = body.contains(document.activeElement) ? document.activeElement?.tagName : undefined;
      body.replaceChildren(render(health));
      const details = body.querySelector('details');
      if (details) details.open = open;
      if (focused === 'SUMMARY') body.querySelector('summary')?.focus();
      else if (focused) body.closest('main')?.querySelector('h1')?.focus();
      stamp.textContent = `Read at ${new Date().toLocaleTimeString()}.`;
    } catch (e) {
      ctx.error(e);
    }
  };
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Health'),
      h(
        'p',
        { class: 'note' },
        stamp,
        ` Refreshed every ${REFRESH_MS / 1000} seconds. `,
        h('button', { type: 'button', class: 'secondary', onclick: () => void refresh() }, 'Refresh now'),
      ),
      body,
    ),
    cleanup: () => clearInterval(timer),
  };
};

export const masterScreen = async (ctx) => {
  const m = await ctx.master();
  const fresh = await api('GET', '/admin/master');
  const zone = `UTC${fresh.timezoneOffsetMinutes >= 0 ? '+' : '−'}${String(Math.floor(Math.abs(fresh.timezoneOffsetMinutes) / 60)).padStart(2, '0')}:${String(Math.abs(fresh.timezoneOffsetMinutes) % 60).padStart(2, '0')}`;
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Master data'),
      h(
        'section',
        { class: 'panel', 'aria-label': 'The master data loaded' },
        facts([
          ['Version (sha256 of the files)', h('code', { id: 'master-hash' }, fresh.hash ?? 'not loaded from files')],
          ['Loaded', fresh.loadedAt ? `${fresh.loadedAt} (game time), when this server started` : '—'],
          ['From', fresh.source ?? '—'],
          ['Game time zone', zone],
          [
            'Defines',
            `${int(fresh.counts.gachas)} gachas, ${int(fresh.counts.characters)} characters, ${int(fresh.counts.items)} items`,
          ],
        ]),
      ),
      m.hash !== fresh.hash
        ? h(
            'p',
            { class: 'warn' },
            'The master data changed since you logged in: times on other screens use the new time zone after a reload.',
          )
        : null,
      h(
        'p',
        { class: 'note' },
        'The replay log names the master data of each entry by this hash; a copy of each version is kept under DATA_DIR/master/ (or in PostgreSQL) for replays.',
      ),
    ),
  };
};
