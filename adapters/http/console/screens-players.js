// Finding a player (by id, uuid, friend code or name) and one player's screen:
// currencies, characters, weapons, items, the gift box with deadlines, sessions
// (ended from here), the draw history by gacha and date, and the player's data (export,
// import: screens-player-data.js).
import { api } from './api.js';
import { suspensionPanel } from './screens-suspension.js';
import { dataPanel } from './screens-player-data.js';
import { facts, fill, h, table } from './dom.js';
import { int, wireTime } from './format.js';

const KEYS = [
  ['myCode', 'Friend code'],
  ['playerId', 'Player id'],
  ['name', 'Name'],
  ['uuid', 'UUID'],
];

export const findScreen = async (ctx, query) => {
  const given = KEYS.find(([k]) => query.has(k));
  const select = h(
    'select',
    { id: 'find-key', name: 'key' },
    KEYS.map(([k, label]) => h('option', { value: k, selected: given?.[0] === k }, label)),
  );
  const input = h('input', {
    id: 'find-value',
    name: 'value',
    required: true,
    value: given ? query.get(given[0]) : '',
    autocomplete: 'off',
  });
  const form = h(
    'form',
    {
      class: 'inline',
      role: 'search',
      onsubmit: (ev) => {
        ev.preventDefault();
        ctx.go(`#/players?${new URLSearchParams({ [select.value]: input.value.trim() })}`);
      },
    },
    h('label', { for: 'find-key' }, 'Find by', select),
    h('label', { for: 'find-value' }, 'Value', input),
    h('button', { type: 'submit' }, 'Find'),
  );
  const results = h('section', { 'aria-label': 'Players found' });
  if (given) {
    const answer = await api('GET', `/admin/players?${new URLSearchParams({ [given[0]]: query.get(given[0]) })}`);
    const n = answer.players.length;
    ctx.status(`${n} player${n === 1 ? '' : 's'} found.`);
    results.append(
      n === 0
        ? h('p', {}, `No player has ${given[1].toLowerCase()} “${query.get(given[0])}”.`)
        : table(
            `${n} player${n === 1 ? '' : 's'} found`,
            ['Id', 'Name', 'Friend code', 'Level', 'UUID', 'Signed up', 'Last log-in'],
            answer.players.map((p) => [
              h('a', { href: `#/player/${p.playerId}` }, String(p.playerId)),
              p.name,
              p.myCode,
              p.level,
              h('code', {}, p.uuid),
              p.createdAt,
              p.lastLoginAt,
            ]),
            { numeric: [3] },
          ),
    );
  }
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Players'),
      h('p', { class: 'note' }, 'Names are exact and case-sensitive; up to 100 players are listed by name.'),
      form,
      results,
    ),
  };
};

const sessionsPanel = (ctx, playerId) => {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'sessions-h' });
  const load = async (said) => {
    let answer;
    try {
      answer = await api('GET', `/admin/players/${playerId}/sessions`);
    } catch (e) {
      ctx.error(e);
      return;
    }
    const end = async (body, what) => {
      try {
        const r = await api('POST', `/admin/players/${playerId}/sessions/end`, body);
        ctx.clearError();
        const message = `Ended ${r.ended} session${r.ended === 1 ? '' : 's'} (${what}).`;
        ctx.status(message);
        await load(message);
        panel.querySelector('h2')?.focus();
      } catch (e) {
        ctx.error(e);
      }
    };
    const rows = answer.sessions.map((s) => [
      h('code', { title: s.key }, `${s.key.slice(0, 12)}…`),
      s.createdAt,
      s.lastSeenAt,
      h('span', { class: s.status === 'live' ? 'ok' : 'note' }, s.status),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'data-needs': 'support',
          'aria-label': `End session ${s.key.slice(0, 12)}`,
          onclick: () => end({ keys: [s.key] }, `session ${s.key.slice(0, 12)}`),
        },
        'End',
      ),
    ]);
    fill(
      panel,
      h('h2', { id: 'sessions-h', tabindex: '-1' }, 'Sessions'),
      said ? h('p', { class: 'ok', role: 'status' }, said) : null,
      table('Sessions, oldest first', ['Key', 'Made', 'Last used', 'Status', ''], rows, { empty: 'no session.' }),
      answer.sessions.length > 0
        ? h(
            'p',
            {},
            h(
              'button',
              {
                type: 'button',
                id: 'end-all-sessions',
                'data-needs': 'support',
                class: 'danger',
                onclick: () => end({ all: true }, 'all'),
              },
              'End all sessions',
            ),
          )
        : null,
      h('p', { class: 'note' }, 'An ended session answers 203: the game asks the player to log in again.'),
    );
  };
  return { panel, load };
};

const drawsPanel = (ctx, playerId, gachas) => {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'draws-h' });
  const gacha = h(
    'select',
    { id: 'draws-gacha' },
    h('option', { value: '' }, 'Every gacha'),
    gachas.map((g) => h('option', { value: g.gachaId }, `${g.gachaId} ${g.name}`)),
  );
  const from = h('input', { id: 'draws-from', placeholder: '2026-01-01T00:00:00', size: 20 });
  const to = h('input', { id: 'draws-to', placeholder: '2026-12-31T23:59:59', size: 20 });
  const list = h('div', { 'aria-live': 'polite' });
  let page = 1;
  const load = async () => {
    const q = new URLSearchParams({ page: String(page), pageSize: '20' });
    if (gacha.value) q.set('gachaId', gacha.value);
    if (from.value.trim()) q.set('from', from.value.trim());
    if (to.value.trim()) q.set('to', to.value.trim());
    let r;
    try {
      r = await api('GET', `/admin/players/${playerId}/draws?${q}`);
      ctx.clearError();
    } catch (e) {
      ctx.error(e);
      return;
    }
    const pages = Math.max(1, Math.ceil(r.total / r.pageSize));
    const paid = (p) =>
      [
        p.gem ? `${int(p.gem)} gems` : '',
        p.paidGem ? `${int(p.paidGem)} paid gems` : '',
        p.ticket ? `${p.ticket} ticket` : '',
      ]
        .filter(Boolean)
        .join(', ') || 'nothing';
    fill(
      list,
      table(
        `Draws, newest first: ${int(r.total)} in all (kept ${r.historyDays} days)`,
        ['Drawn at', 'Gacha', 'Kind', 'Characters', 'Paid', 'Granted'],
        r.draws.map((d) => [
          d.drawnAt,
          `${d.gachaId} ${d.name}`,
          d.kind,
          d.characters.map((c) => `${c.name || c.characterId} ★${c.rarity}${c.pickup ? ' (pickup)' : ''}`).join(', '),
          paid(d.paid),
          d.granted ? 'yes' : 'pending',
        ]),
        { empty: 'no draw matches.' },
      ),
      h(
        'p',
        { class: 'inline' },
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            disabled: page <= 1,
            onclick: () => {
              page--;
              void load();
            },
          },
          'Newer',
        ),
        ' ',
        `Page ${r.page} of ${pages}`,
        ' ',
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            disabled: page >= pages,
            onclick: () => {
              page++;
              void load();
            },
          },
          'Older',
        ),
      ),
    );
  };
  panel.append(
    h('h2', { id: 'draws-h' }, 'Draw history'),
    h(
      'form',
      {
        class: 'inline',
        onsubmit: (ev) => {
          ev.preventDefault();
          page = 1;
          void load();
        },
      },
      h('label', { for: 'draws-gacha' }, 'Gacha', gacha),
      h('label', { for: 'draws-from' }, 'From (game time)', from),
      h('label', { for: 'draws-to' }, 'Before', to),
      h('button', { type: 'submit' }, 'Show'),
    ),
    list,
  );
  return { panel, load };
};

export const playerScreen = async (ctx, playerId) => {
  const [{ state: s }, master, { gachas }, names] = await Promise.all([
    api('GET', `/admin/players/${playerId}`),
    ctx.master(),
    api('GET', '/admin/gachas'),
    ctx.names(),
  ]);
  const tz = master.timezoneOffsetMinutes;
  const t = (ms) => wireTime(ms, tz);
  const sessions = sessionsPanel(ctx, playerId);
  const draws = drawsPanel(ctx, playerId, gachas);
  const suspension = suspensionPanel(ctx, playerId);
  await Promise.all([sessions.load(), draws.load(), suspension.load()]);
  const card = (label, value) =>
    h('div', { class: 'card' }, h('div', { class: 'note' }, label), h('div', { class: 'big' }, value));
  const node = h(
    'div',
    {},
    h('h1', {}, `${s.name} (player ${s.playerId})`),
    h(
      'p',
      { 'data-needs': 'support' },
      h('a', { href: `#/presents?playerIds=${s.playerId}` }, 'Send this player a present'),
    ),
    h(
      'section',
      { class: 'panel', 'aria-label': 'Account' },
      facts([
        ['Player id', s.playerId],
        ['Friend code', s.myCode],
        ['UUID', h('code', {}, s.account.uuid)],
        ['Level', `${s.level} (${int(s.exp)} exp)`],
        ['Signed up', t(s.createdAt)],
        ['Last log-in', t(s.lastLoginAt)],
        ['State version', s.version],
      ]),
    ),
    h('h2', {}, 'Currencies'),
    h(
      'div',
      { class: 'cards' },
      card('Gold', int(s.gold)),
      card('Gems (free)', int(s.gem)),
      card('Paid gems', int(s.paidGem)),
      card('Kirara', int(s.kirara)),
      card('Stamina (stored)', int(s.stamina.value)),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'presents-h' },
      h('h2', { id: 'presents-h' }, 'Gift box'),
      table(
        `Presents waiting: ${s.presents.length}`,
        ['Id', 'Title', 'What', 'From', 'Sent', 'Deadline'],
        s.presents.map((p) => [
          p.managedPresentId,
          p.title,
          names.grant(p),
          p.source,
          t(p.createdAt),
          p.deadline === null ? 'none' : t(p.deadline),
        ]),
        { numeric: [0], empty: 'the gift box is empty.' },
      ),
      h('p', { class: 'note' }, `${s.received.length} present${s.received.length === 1 ? '' : 's'} received before.`),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'owned-h' },
      h('h2', { id: 'owned-h' }, 'Characters, weapons and items'),
      table(
        `Characters: ${s.characters.length}`,
        ['Managed id', 'Character', 'Level', 'Limit break', 'Awakening', 'Evolved', 'Obtained'],
        s.characters.map((c) => [
          c.managedCharacterId,
          names.named('character', c.characterId),
          c.level,
          c.limitBreak,
          c.awakening,
          c.evolved ? 'yes' : 'no',
          t(c.createdAt),
        ]),
        { numeric: [0, 2, 3, 4] },
      ),
      table(
        `Weapons: ${s.weapons.length}`,
        ['Managed id', 'Weapon', 'Level', 'Obtained'],
        s.weapons.map((w) => [w.managedWeaponId, names.named('weapon', w.weaponId), w.level, t(w.createdAt)]),
        { numeric: [0, 2] },
      ),
      table(
        `Items: ${s.items.length} kinds`,
        ['Item', 'Amount'],
        s.items.map((i) => [names.named('item', i.itemId), int(i.amount)]),
        { numeric: [1] },
      ),
    ),
    sessions.panel,
    suspension.panel,
    draws.panel,
    dataPanel(ctx, s.playerId),
  );
  return { node };
};
