// Game data: the version in force, the scheduled ones and the history; publishing a
// version from a directory's files (read in the browser, validated by the server,
// answered with what it changes), scheduling a version for an instant (or now),
// cancelling one before its time, rolling back (scheduling an earlier version), and
// previewing a version on a sample of the stored players before it is scheduled.
import { api } from './api.js';
import { fill, h, table } from './dom.js';

const short = (v) => `${v.slice(0, 12)}…`;

/** The files chosen, by name: each a JSON file of fixtures/ (gachas.json …). */
const readFiles = async (input) => {
  const files = {};
  for (const f of input.files) files[f.name] = await f.text();
  return files;
};

const diffList = (diff) =>
  diff.length === 0
    ? h('p', { class: 'note' }, 'No change against the version in force.')
    : h(
        'ul',
        { id: 'master-diff' },
        diff.map((d) =>
          h(
            'li',
            {},
            h('strong', {}, d.file),
            h(
              'ul',
              {},
              d.changes.map((c) => h('li', {}, c)),
            ),
          ),
        ),
      );

const fixed = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(3));
const signed = (x) => (x > 0 ? `+${fixed(x)}` : fixed(x));

/** The preview's report: each metric's A, B, B − A with its 95% interval, and whether it survives the correction. */
const previewReport = (r) =>
  h(
    'div',
    { id: 'preview-report' },
    h(
      'p',
      {},
      `A (in force ${short(r.inForce)}) against B (${short(r.candidate)}): ${r.players} stored players × ${r.days} days from ${r.from}, ${r.seeds} paired runs, in ${(r.tookMs / 1000).toFixed(1)} s. `,
      h('strong', {}, `${r.testing.marked} of ${r.testing.tested} differences marked`),
      ` (${r.testing.correction}, false discovery rate ${r.testing.falseDiscoveryRate * 100}%).`,
    ),
    table(
      'Preview',
      ['metric', 'profile', 'A', 'B', 'B − A', '95% interval', 'q', ''],
      [...r.rows]
        .sort((x, y) => Number(y.marked) - Number(x.marked) || Number(x.profile !== null) - Number(y.profile !== null))
        .map((x) => [
          x.metric,
          x.profile ?? 'all',
          fixed(x.a),
          fixed(x.b),
          signed(x.diff),
          x.low === null ? '' : `${signed(x.low)} … ${signed(x.high)}`,
          x.q === null ? '' : x.q.toPrecision(2),
          x.marked ? 'marked' : '',
        ]),
    ),
    h(
      'p',
      { class: 'note' },
      'A marked difference survives the correction for testing every metric at once; an unmarked one may be chance. More seeds or players narrow the intervals.',
    ),
  );

export const gameDataScreen = async (ctx) => {
  const m = await api('GET', '/admin/master');
  const v = m.versions;
  const rerender = () => ctx.go(`#/gamedata?t=${Date.now()}`);
  const result = h('div', { id: 'master-result', tabindex: '-1' });

  const fileInput = h('input', { id: 'master-files', type: 'file', multiple: true, accept: '.json' });
  const note = h('input', { id: 'master-note', maxlength: 200, placeholder: 'what changes, for the history' });
  const onPublish = async (e) => {
    e.preventDefault();
    try {
      const answer = await api('POST', '/admin/master/versions', {
        files: await readFiles(fileInput),
        note: note.value,
      });
      ctx.clearError();
      ctx.status(`Published ${short(answer.version)}.`);
      fill(
        result,
        h('h2', {}, `Version ${short(answer.version)}${answer.alreadyKept ? ' (published before)' : ''}`),
        h('p', {}, 'What it changes against the version in force:'),
        diffList(answer.diff),
        h('p', { class: 'note' }, 'Nothing is served from it until it is scheduled below.'),
      );
      scheduleVersion.value = answer.version;
      previewVersion.value = answer.version;
      result.focus();
    } catch (err) {
      ctx.error(err);
    }
  };

  const scheduleVersion = h('input', {
    id: 'schedule-version',
    size: 66,
    placeholder: '64 hex digits',
    required: true,
  });
  const scheduleAt = h('input', { id: 'schedule-at', placeholder: '2026-12-31T23:59:59 (empty: now)' });
  const scheduleNote = h('input', { id: 'schedule-note', maxlength: 200 });
  const onSchedule = async (e) => {
    e.preventDefault();
    try {
      const body = { version: scheduleVersion.value.trim(), note: scheduleNote.value };
      if (scheduleAt.value.trim() !== '') body.at = scheduleAt.value.trim();
      const entry = await api('POST', '/admin/master/schedule', body);
      ctx.clearError();
      ctx.status(`Version ${short(entry.version)} takes effect at ${entry.at}.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  const previewVersion = h('input', { id: 'preview-version', size: 66, placeholder: '64 hex digits', required: true });
  const number = (id, value, max) => h('input', { id, type: 'number', min: 1, max, value: String(value) });
  const previewPlayers = number('preview-players', 200, 2000);
  const previewDays = number('preview-days', 7, 30);
  const previewSeeds = number('preview-seeds', 10, 20);
  previewSeeds.min = '2';
  const previewResult = h('div', { id: 'preview-result', tabindex: '-1' });
  const onPreview = async (e) => {
    e.preventDefault();
    fill(previewResult, h('p', { class: 'note' }, 'Running the preview (a minute for a thousand players)…'));
    try {
      const r = await api('POST', '/admin/master/preview', {
        version: previewVersion.value.trim(),
        players: Number(previewPlayers.value),
        days: Number(previewDays.value),
        seeds: Number(previewSeeds.value),
      });
      ctx.clearError();
      fill(previewResult, previewReport(r));
      previewResult.focus();
    } catch (err) {
      fill(previewResult);
      ctx.error(err);
    }
  };

  const cancelButton = (id) =>
    h(
      'button',
      {
        type: 'button',
        onclick: async () => {
          try {
            await api('POST', `/admin/master/schedule/${id}/cancel`, {});
            ctx.status(`Schedule entry ${id} cancelled.`);
            rerender();
          } catch (err) {
            ctx.error(err);
          }
        },
      },
      'Cancel',
    );
  const useButton = (version) =>
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          scheduleVersion.value = version;
          scheduleAt.focus();
        },
      },
      'Schedule this',
    );
  const previewButton = (version) =>
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          previewVersion.value = version;
          previewPlayers.focus();
        },
      },
      'Preview this',
    );

  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Game data'),
      h('p', {}, 'In force now: ', h('code', { id: 'master-in-force' }, v.inForce)),
      table(
        'Scheduled (not yet in effect)',
        ['id', 'version', 'at', 'by', 'note', ''],
        v.scheduled.map((e) => [String(e.id), h('code', {}, short(e.version)), e.at, e.by, e.note, cancelButton(e.id)]),
        { empty: 'Nothing scheduled.' },
      ),
      h(
        'form',
        { class: 'stack', onsubmit: onPublish, 'aria-label': 'Publish a version', 'data-needs': 'design' },
        h('h2', {}, 'Publish a version'),
        h('label', { for: 'master-files' }, 'Files from a copy of fixtures/ (the ones not chosen stay as in force)'),
        fileInput,
        h('label', { for: 'master-note' }, 'Note'),
        note,
        h('button', { type: 'submit' }, 'Publish and see what it changes'),
      ),
      result,
      h(
        'form',
        { class: 'stack', onsubmit: onPreview, 'aria-label': 'Preview a version', 'data-needs': 'design' },
        h('h2', {}, 'Preview a version on the stored players'),
        h(
          'p',
          { class: 'note' },
          "The simulator's behaviour profiles play a sample of the stored players (read, never changed) for some days under the version in force and under this one, on the same random draws.",
        ),
        h('label', { for: 'preview-version' }, 'Version'),
        previewVersion,
        h('label', { for: 'preview-players' }, 'Players (up to 2,000)'),
        previewPlayers,
        h('label', { for: 'preview-days' }, 'Days (up to 30)'),
        previewDays,
        h('label', { for: 'preview-seeds' }, 'Paired runs (2 to 20)'),
        previewSeeds,
        h('button', { type: 'submit' }, 'Preview'),
      ),
      previewResult,
      h(
        'form',
        { class: 'stack', onsubmit: onSchedule, 'aria-label': 'Schedule a version', 'data-needs': 'design' },
        h('h2', {}, 'Schedule a version (an earlier one rolls back)'),
        h('label', { for: 'schedule-version' }, 'Version'),
        scheduleVersion,
        h('label', { for: 'schedule-at' }, 'Takes effect at (game time, or ISO 8601 with a zone)'),
        scheduleAt,
        h('label', { for: 'schedule-note' }, 'Note'),
        scheduleNote,
        h('button', { type: 'submit' }, 'Schedule'),
      ),
      table(
        'Versions kept',
        ['version', 'published', 'by', 'note', ''],
        v.versions.map((x) => [
          h('code', {}, short(x.version)),
          x.publishedAt,
          x.by,
          x.note,
          h('span', {}, useButton(x.version), ' ', previewButton(x.version)),
        ]),
      ),
      table(
        'Schedule history',
        ['id', 'version', 'at', 'by', 'note', 'cancelled'],
        v.history.map((e) => [String(e.id), h('code', {}, short(e.version)), e.at, e.by, e.note, e.cancelledAt ?? '']),
        { empty: 'Never scheduled: the version started with serves.' },
      ),
    ),
  };
};
