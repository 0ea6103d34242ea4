// Operators: your personal API tokens (create one, shown once; revoke); for an
// administrator, every operator (create with a role, disable, re-enable). The audit
// trail: every operator write, who, when, from where, what was asked and what it did,
// filtered by operator, action, player and time.
import { api } from './api.js';
import { fill, h, table } from './dom.js';

const tokensPanel = (ctx, tokens, rerender) => {
  const name = h('input', {
    id: 'token-name',
    maxlength: 64,
    required: true,
    placeholder: 'what it is for: nightly report',
  });
  const shown = h('div', { id: 'token-shown', 'aria-live': 'polite' });
  const onCreate = async (e) => {
    e.preventDefault();
    try {
      const r = await api('POST', '/admin/tokens', { name: name.value });
      ctx.clearError();
      fill(
        shown,
        h('p', { class: 'ok' }, `Token ${r.record.id} made. Copy it now: it is shown once.`),
        h('code', { id: 'token-value' }, r.token),
      );
    } catch (err) {
      ctx.error(err);
    }
  };
  const revoke = (id) => async () => {
    try {
      await api('POST', `/admin/tokens/${id}/revoke`, {});
      ctx.status(`Token ${id} revoked.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'tokens-h' },
    h('h2', { id: 'tokens-h' }, 'Personal API tokens'),
    table(
      'Tokens (yours; an administrator sees all)',
      ['Id', 'Operator', 'Name', 'Made', 'Last used', 'Revoked', ''],
      tokens.map((x) => [
        x.id,
        x.operator,
        x.name,
        x.createdAt,
        x.lastUsedAt ?? 'never',
        x.revokedAt ?? '',
        x.revokedAt
          ? ''
          : h(
              'button',
              { type: 'button', class: 'danger', onclick: revoke(x.id), 'aria-label': `Revoke token ${x.id}` },
              'Revoke',
            ),
      ]),
      { numeric: [0], empty: 'no token.' },
    ),
    h(
      'form',
      { class: 'stack', onsubmit: onCreate, 'aria-label': 'Make a personal token' },
      h('label', { for: 'token-name' }, 'Name'),
      name,
      h('button', { type: 'submit' }, 'Make a token'),
    ),
    shown,
    h(
      'p',
      { class: 'note' },
      'A token acts as you, with your role; a revoked one stops working at once on every server.',
    ),
  );
};

const operatorsPanel = (ctx, operators, rerender) => {
  const name = h('input', { id: 'new-op-name', required: true, placeholder: 'aki.support' });
  const role = h(
    'select',
    { id: 'new-op-role' },
    ['viewer', 'support', 'designer', 'admin'].map((r) => h('option', { value: r }, r)),
  );
  const password = h('input', {
    id: 'new-op-password',
    type: 'password',
    autocomplete: 'new-password',
    minlength: 12,
    required: true,
  });
  const onCreate = async (e) => {
    e.preventDefault();
    try {
      const r = await api('POST', '/admin/operators', {
        name: name.value.trim(),
        role: role.value,
        password: password.value,
      });
      ctx.status(`Operator ${r.operator.name} (${r.operator.role}) made.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  const toggle = (o) => async () => {
    try {
      if (o.disabledAt) await api('POST', `/admin/operators/${o.name}/enable`, {});
      else await api('POST', `/admin/operators/${o.name}/disable`, {});
      ctx.status(`${o.name} ${o.disabledAt ? 're-enabled' : 'disabled'}.`);
      rerender();
    } catch (err) {
      ctx.error(err);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'operators-h', 'data-needs': 'admin' },
    h('h2', { id: 'operators-h' }, 'Operators'),
    table(
      'Operators',
      ['Name', 'Role', 'Made', 'By', 'Disabled', ''],
      operators.map((o) => [
        o.name,
        o.role,
        o.createdAt,
        o.createdBy,
        o.disabledAt ?? '',
        h(
          'button',
          { type: 'button', onclick: toggle(o), 'aria-label': `${o.disabledAt ? 'Enable' : 'Disable'} ${o.name}` },
          o.disabledAt ? 'Enable' : 'Disable',
        ),
      ]),
      { empty: 'no operator yet: ADMIN_TOKEN alone.' },
    ),
    h(
      'form',
      { class: 'stack', onsubmit: onCreate, 'aria-label': 'Make an operator' },
      h('label', { for: 'new-op-name' }, 'Name'),
      name,
      h(
        'label',
        { for: 'new-op-role' },
        'Role: viewer reads; support sends presents, ends sessions, suspends, recalls, writes notices; designer changes the game data; admin does everything',
      ),
      role,
      h('label', { for: 'new-op-password' }, 'Password (12 characters or more)'),
      password,
      h('button', { type: 'submit' }, 'Make the operator'),
    ),
  );
};

export const operatorsScreen = async (ctx) => {
  const me = await ctx.me();
  const [tokens, operators] = await Promise.all([
    api('GET', '/admin/tokens'),
    me.permissions.includes('admin') ? api('GET', '/admin/operators') : Promise.resolve({ operators: [] }),
  ]);
  const rerender = () => ctx.go(`#/operators?t=${Date.now()}`);
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Operators'),
      h('p', {}, `Signed in as ${me.name}, ${me.role} (${me.via}).`),
      tokensPanel(ctx, tokens.tokens, rerender),
      operatorsPanel(ctx, operators.operators, rerender),
    ),
  };
};

export const auditScreen = async (ctx, query) => {
  const filters = ['operator', 'action', 'playerId', 'from', 'to'];
  const inputs = Object.fromEntries(
    filters.map((f) => [f, h('input', { id: `audit-${f}`, value: query.get(f) ?? '' })]),
  );
  const q = new URLSearchParams();
  for (const f of filters) if (query.get(f)) q.set(f, query.get(f));
  const r = await api('GET', `/admin/audit?${q.toString()}`);
  const onFilter = (e) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const f of filters) if (inputs[f].value.trim() !== '') next.set(f, inputs[f].value.trim());
    ctx.go(`#/audit?${next.toString()}`);
  };
  const short = (s) => (s.length > 160 ? `${s.slice(0, 160)}…` : s);
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Audit'),
      h(
        'form',
        { class: 'stack', onsubmit: onFilter, 'aria-label': 'Filter the audit trail' },
        filters.flatMap((f) => [h('label', { for: `audit-${f}` }, f), inputs[f]]),
        h('button', { type: 'submit' }, 'Filter'),
      ),
      table(
        `Operator writes, newest first: ${r.entries.length}`,
        ['At', 'Who', 'From', 'Action', 'Asked', 'Result', 'Did'],
        r.entries.map((e) => [
          e.at,
          `${e.operator} (${e.via})`,
          e.ip,
          e.action,
          h('code', {}, short(`${Object.keys(e.params).length > 0 ? `${JSON.stringify(e.params)} ` : ''}${e.request}`)),
          e.resultCode === 0 ? 'done' : `refused (${e.resultCode})`,
          h('code', {}, e.answer === null ? '' : short(e.answer)),
        ]),
        { empty: 'nothing recorded.' },
      ),
    ),
  };
};
