// A player's own data on the player's screen (docs/privacy.md): Export downloads the
// player's whole data as the versioned document GET /admin/players/:id/export answers;
// the Import form sends such a document to POST /admin/players/import, as a new player
// (bound to the document's uuid or one given) or, confirmed, over this player.
import { api } from './api.js';
import { fill, h } from './dom.js';

/** The envelope's own fields: the document is the rest of the answer. */
const ENVELOPE = ['resultCode', 'resultMessage', 'serverTime', 'serverVersion'];

/** Downloads a value as a JSON file (an object URL, let go once clicked). */
const download = (name, value) => {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

export const dataPanel = (ctx, playerId) => {
  const said = h('div', { 'aria-live': 'polite' });
  const exportData = async () => {
    try {
      const answer = await api('GET', `/admin/players/${playerId}/export`);
      const doc = Object.fromEntries(Object.entries(answer).filter(([k]) => !ENVELOPE.includes(k)));
      download(`player-${playerId}.json`, doc);
      ctx.clearError();
      const message = `Exported player ${playerId} (document version ${doc.version}) as player-${playerId}.json.`;
      ctx.status(message);
      fill(said, h('p', { class: 'ok', role: 'status' }, message));
    } catch (e) {
      ctx.error(e);
    }
  };
  const file = h('input', { id: 'import-file', type: 'file', accept: 'application/json,.json', required: true });
  const uuid = h('input', { id: 'import-uuid', size: 38, autocomplete: 'off', placeholder: "the document's" });
  const overwrite = h('input', { id: 'import-overwrite', type: 'checkbox' });
  const importData = async (ev) => {
    ev.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) {
      ctx.error('Choose an exported document (a .json file) first.');
      return;
    }
    let document;
    try {
      document = JSON.parse(await chosen.text());
    } catch {
      ctx.error(`${chosen.name} is not JSON: choose a document the export made.`);
      return;
    }
    const body = { document, ...(overwrite.checked ? { overwrite: true } : {}) };
    if (!overwrite.checked && uuid.value.trim()) body.uuid = uuid.value.trim();
    try {
      const r = await api('POST', '/admin/players/import', body);
      ctx.clearError();
      const message = r.overwritten
        ? `Player ${r.playerId} overwritten with ${chosen.name} (state version ${r.version}); their sessions ended.`
        : `Imported ${chosen.name} as player ${r.playerId}, bound to ${r.uuid}.`;
      ctx.status(message);
      fill(
        said,
        h('p', { class: 'ok', role: 'status' }, message),
        r.overwritten
          ? null
          : h(
              'p',
              {},
              'Its access token (shown once; give it to the player with the uuid): ',
              h('code', { id: 'import-token' }, r.accessToken),
              ' ',
              h('a', { href: `#/player/${r.playerId}` }, `Open player ${r.playerId}`),
            ),
      );
    } catch (e) {
      ctx.error(e);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'data-h' },
    h('h2', { id: 'data-h' }, 'Player data'),
    h(
      'p',
      {},
      h('button', { type: 'button', id: 'export-player', onclick: () => void exportData() }, 'Export'),
      ' ',
      h(
        'span',
        { class: 'note' },
        'Downloads the whole stored state as a versioned document (a copy for the player, a backup).',
      ),
    ),
    h(
      'form',
      { class: 'inline', 'aria-label': 'Import a document', onsubmit: (ev) => void importData(ev) },
      h('label', { for: 'import-file' }, 'Document', file),
      h('label', { for: 'import-uuid' }, 'Bind to uuid (a new player)', uuid),
      h(
        'label',
        { for: 'import-overwrite' },
        overwrite,
        ` Overwrite player ${playerId} (its account and friends stay)`,
      ),
      h('button', { type: 'submit', id: 'import-player' }, 'Import'),
    ),
    h(
      'p',
      { class: 'note' },
      'Without overwrite the document becomes a new player with a new id, friend code and access token. Malformed documents are refused with the field at fault; nothing changes.',
    ),
    said,
  );
};
