// Game data: the version in force, the scheduled ones and the history; publishing a
// version from a directory's files (read in the browser, validated by the server,
// answered with what it changes), scheduling a version for an instant (or now),
// cancelling one before its time, and rolling back (scheduling an earlier version).
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
        { class: 'stack', onsubmit: onPublish, 'aria-label': 'Publish a version' },
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
        { class: 'stack', onsubmit: onSchedule, 'aria-label': 'Schedule a version' },
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
        v.versions.map((x) => [h('code', {}, short(x.version)), x.publishedAt, x.by, x.note, useButton(x.version)]),
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
