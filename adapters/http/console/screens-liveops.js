// The live game: the maintenance window (close the game now or for a window to come,
// with the players who play through it; end it), the notices players read (write,
// preview as a player sees it, withdraw) and the present sends (recall one's
// unreceived presents).
import { api } from './api.js';
import { fill, h, table } from './dom.js';
import { int } from './format.js';

const field = (id, label, input) => [h('label', { for: id }, label), input];
const optional = (v) => (v.trim() === '' ? null : v.trim());

const maintenancePanel = (ctx, m, rerender) => {
  const from = h('input', { id: 'mt-from', placeholder: 'empty: now' });
  const until = h('input', { id: 'mt-until', placeholder: '2026-12-31T04:00:00', required: true });
  const message = h('textarea', { id: 'mt-message', rows: 2, maxlength: 500, required: true });
  const allow = h('input', { id: 'mt-allow', placeholder: 'player ids who play through it: 12, 15' });
  const onSet = async (e) => {
    e.preventDefault();
    try {
      const ids = allow.value
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '')
        .map(Number);
      const body = { until: until.value.trim(), message: message.value, allowPlayerIds: ids };
      if (optional(from.value)) body.from = optional(from.value);
      const r = await api('POST', '/admin/maintenance', body);
      ctx.status(`Maintenance set: ${r.maintenance.from} to ${r.maintenance.until}.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  const onEnd = async () => {
    try {
      await api('DELETE', '/admin/maintenance');
      ctx.status('Maintenance ended: the game is open.');
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'mt-h' },
    h('h2', { id: 'mt-h' }, 'Maintenance'),
    m
      ? h(
          'p',
          { id: 'mt-now', class: m.inForce ? 'danger' : 'note' },
          `${m.inForce ? 'Closed now' : 'Closes'} from ${m.from} until ${m.until} (set by ${m.by}): “${m.message}”`,
          m.allowPlayerIds.length > 0 ? ` Playing through it: ${m.allowPlayerIds.join(', ')}.` : '',
          ' ',
          h(
            'button',
            { type: 'button', id: 'mt-end', 'data-needs': 'admin', class: 'danger', onclick: onEnd },
            m.inForce ? 'End it now' : 'Cancel it',
          ),
        )
      : h('p', { id: 'mt-now', class: 'ok' }, 'The game is open: no maintenance is set.'),
    h(
      'form',
      { class: 'stack', onsubmit: onSet, 'aria-label': 'Set a maintenance window', 'data-needs': 'admin' },
      field('mt-from', 'From (game time; empty: now)', from),
      field('mt-until', 'Until (game time, or ISO 8601 with a zone)', until),
      field('mt-message', 'Message players see', message),
      field('mt-allow', 'Allowed players', allow),
      h('button', { type: 'submit' }, 'Close the game for this window'),
      h(
        'p',
        { class: 'note' },
        'Every player request answers 503 (result code 10) with the message and the end; the version check, the notices, this console and the probes keep answering.',
      ),
    ),
  );
};

const noticesPanel = (ctx, notices, rerender) => {
  const kind = h(
    'select',
    { id: 'nt-kind' },
    ['info', 'maintenance', 'banner', 'update', 'event'].map((k) => h('option', { value: k }, k)),
  );
  const title = h('input', { id: 'nt-title', maxlength: 100, required: true });
  const body = h('textarea', { id: 'nt-body', rows: 3, maxlength: 4000 });
  const from = h('input', { id: 'nt-from', placeholder: 'empty: now' });
  const until = h('input', { id: 'nt-until', placeholder: 'empty: until withdrawn' });
  const preview = h('div', { id: 'nt-preview', class: 'panel', 'aria-live': 'polite' });
  const showPreview = () =>
    fill(
      preview,
      h('p', { class: 'note' }, 'As a player sees it:'),
      h('strong', {}, `[${kind.value}] ${title.value || '(title)'}`),
      h('p', {}, body.value),
    );
  for (const el of [kind, title, body]) el.addEventListener('input', showPreview);
  showPreview();
  const onWrite = async (e) => {
    e.preventDefault();
    try {
      const req = { kind: kind.value, title: title.value, body: body.value };
      if (optional(from.value)) req.from = optional(from.value);
      if (optional(until.value)) req.until = optional(until.value);
      const r = await api('POST', '/admin/notices', req);
      ctx.status(`Notice ${r.notice.id} written.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  const withdraw = (id) => async () => {
    try {
      await api('POST', `/admin/notices/${id}/withdraw`, {});
      ctx.status(`Notice ${id} withdrawn.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'nt-h' },
    h('h2', { id: 'nt-h' }, 'Notices'),
    table(
      'Notices, newest first',
      ['Id', 'Kind', 'Title', 'From', 'Until', 'Shown now', ''],
      notices.map((n) => [
        n.id,
        n.kind,
        n.title,
        n.from,
        n.until ?? 'until withdrawn',
        n.withdrawnAt ? `withdrawn ${n.withdrawnAt}` : n.inForce ? 'yes' : 'no',
        n.withdrawnAt
          ? ''
          : h(
              'button',
              {
                type: 'button',
                class: 'danger',
                onclick: withdraw(n.id),
                'data-needs': 'support',
                'aria-label': `Withdraw notice ${n.id}`,
              },
              'Withdraw',
            ),
      ]),
      { numeric: [0], empty: 'no notice written.' },
    ),
    h(
      'form',
      { class: 'stack', onsubmit: onWrite, 'aria-label': 'Write a notice', 'data-needs': 'support' },
      field('nt-kind', 'Kind', kind),
      field('nt-title', 'Title', title),
      field('nt-body', 'Text', body),
      field('nt-from', 'Shown from (game time; empty: now)', from),
      field('nt-until', 'Shown until (empty: until withdrawn)', until),
      preview,
      h('button', { type: 'submit' }, 'Publish the notice'),
    ),
  );
};

const sendsPanel = (ctx, sends, names, rerender) => {
  const recall = (s) => async () => {
    try {
      const r = await api('POST', '/admin/presents/recall', { sendId: s.sendId });
      ctx.status(
        `Send ${s.sendId} recalled: ${int(r.removed)} presents taken back, ${int(r.alreadyReceived)} already received.`,
      );
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'sd-h' },
    h('h2', { id: 'sd-h' }, 'Present sends'),
    table(
      'Sends, newest first',
      ['Send', 'At', 'By', 'Title', 'What', 'To', 'Players', 'Recalled', ''],
      sends.map((s) => [
        s.sendId,
        s.at,
        s.by,
        s.title,
        names.grant(s.grant),
        s.target,
        int(s.sent),
        s.recalledAt ? `${s.recalledAt}: ${int(s.removed)} taken back, ${int(s.alreadyReceived)} received` : '',
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            onclick: recall(s),
            'data-needs': 'support',
            'aria-label': `Recall send ${s.sendId}`,
          },
          'Recall',
        ),
      ]),
      { numeric: [0, 6], empty: 'no present sent.' },
    ),
    h(
      'p',
      { class: 'note' },
      'A recall takes back the presents not yet received; received ones stay with the players.',
    ),
  );
};

export const liveOpsScreen = async (ctx) => {
  const [m, n, s, names] = await Promise.all([
    api('GET', '/admin/maintenance'),
    api('GET', '/admin/notices'),
    api('GET', '/admin/presents/sends'),
    ctx.names(),
  ]);
  const rerender = () => ctx.go(`#/liveops?t=${Date.now()}`);
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Live game'),
      maintenancePanel(ctx, m.maintenance, rerender),
      noticesPanel(ctx, n.notices, rerender),
      sendsPanel(ctx, s.sends, names, rerender),
    ),
  };
};
