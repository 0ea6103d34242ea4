// The console's shell: the log-in, the navigation, one screen at a time by the
// address's hash (#/players, #/player/12, #/presents, #/gachas, #/gacha/2,
// #/health, #/master), errors in words in one alert, and the focus moved to each
// new screen's heading so that a keyboard (or a screen reader) lands on it.
import { api, ApiError, describe, token } from './api.js';
import { h } from './dom.js';
import { namer } from './format.js';
import { findScreen, playerScreen } from './screens-players.js';
import { presentsScreen } from './screens-presents.js';
import { gachaScreen, gachasScreen } from './screens-gachas.js';
import { healthScreen, masterScreen } from './screens-health.js';
import { gameDataScreen } from './screens-gamedata.js';
import { liveOpsScreen } from './screens-liveops.js';
import { auditScreen, operatorsScreen } from './screens-operators.js';

const main = document.getElementById('main');
const errorBox = document.getElementById('error');
const statusBox = document.getElementById('status');
const nav = document.getElementById('nav');

let masterInfo = null;
let meInfo = null;
const whoami = document.getElementById('whoami');

/** Who is signed in: the role's permissions become body classes, and what it cannot do is hidden (console.css). */
const applyMe = (me) => {
  for (const c of [...document.body.classList]) if (c.startsWith('can-')) document.body.classList.remove(c);
  for (const p of me?.permissions ?? []) document.body.classList.add(`can-${p}`);
  whoami.textContent = me ? `${me.name} (${me.role})` : '';
};
const forget = () => {
  token.clear();
  masterInfo = null;
  meInfo = null;
  applyMe(null);
};
let renders = 0;
let cleanup = null;

const ctx = {
  /** Shows an error in words; a refused token returns to the log-in. */
  error(e) {
    errorBox.textContent = typeof e === 'string' ? e : describe(e);
    errorBox.hidden = false;
    if (e instanceof ApiError && e.status === 401) {
      forget();
      void render({ keepError: true });
    }
  },
  clearError() {
    errorBox.hidden = true;
    errorBox.textContent = '';
  },
  /** Says what an action did, to screen readers (the screens show it too). */
  status(message) {
    statusBox.textContent = message;
  },
  /** GET /admin/me, once per log-in: who is signed in and what the role may do. */
  async me() {
    if (!meInfo) {
      meInfo = await api('GET', '/admin/me');
      applyMe(meInfo);
    }
    return meInfo;
  },
  /** GET /admin/master, once per log-in: the game's time zone for stored times. */
  async master() {
    return (masterInfo ??= await api('GET', '/admin/master'));
  },
  /** GET /admin/master/names, at each screen that names things (the version in force may change): a namer (format.js). */
  async names() {
    return namer(await api('GET', '/admin/master/names'));
  },
  go(hash) {
    location.hash = hash;
  },
};

const ROUTES = [
  [/^\/players$/, 'players', (q) => findScreen(ctx, q)],
  [/^\/player\/(\d+)$/, 'players', (q, m) => playerScreen(ctx, Number(m[1]), q)],
  [/^\/presents$/, 'presents', (q) => presentsScreen(ctx, q)],
  [/^\/gachas$/, 'gachas', () => gachasScreen(ctx)],
  [/^\/gacha\/(\d+)$/, 'gachas', (_q, m) => gachaScreen(ctx, Number(m[1]))],
  [/^\/health$/, 'health', () => healthScreen(ctx)],
  [/^\/master$/, 'master', () => masterScreen(ctx)],
  [/^\/gamedata$/, 'gamedata', () => gameDataScreen(ctx)],
  [/^\/liveops$/, 'liveops', () => liveOpsScreen(ctx)],
  [/^\/operators$/, 'operators', () => operatorsScreen(ctx)],
  [/^\/audit$/, 'audit', (q) => auditScreen(ctx, q)],
];

/** After a token is had (from signing in, or given): checks it, then shows the screen asked for. */
const enter = async (onRefused) => {
  try {
    await Promise.all([ctx.master(), ctx.me()]);
    ctx.clearError();
    if (location.hash === '' || location.hash === '#/' || location.hash === '#/login') location.hash = '#/players';
    else void render();
  } catch (e) {
    forget();
    ctx.error(
      e instanceof ApiError && e.status === 401
        ? new ApiError(401, e.resultCode, `The token was refused: ${e.message}`)
        : e,
    );
    onRefused();
  }
};

const loginScreen = () => {
  const name = h('input', {
    id: 'op-name',
    name: 'username',
    autocomplete: 'username',
    required: true,
    spellcheck: 'false',
  });
  const password = h('input', {
    id: 'op-password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const signIn = h(
    'form',
    {
      class: 'stack',
      'aria-label': 'Sign in',
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          const r = await api('POST', '/admin/session', { name: name.value.trim(), password: password.value });
          token.set(r.token);
        } catch (e) {
          ctx.error(
            e instanceof ApiError && e.status === 401
              ? new ApiError(401, e.resultCode, 'The name or password was refused.')
              : e,
          );
          password.focus();
          return;
        }
        await enter(() => password.focus());
      },
    },
    h('label', { for: 'op-name' }, 'Operator name'),
    name,
    h('label', { for: 'op-password' }, 'Password'),
    password,
    h('div', {}, h('button', { type: 'submit' }, 'Sign in')),
  );
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const byToken = h(
    'form',
    {
      class: 'stack',
      'aria-label': 'Log in with a token',
      onsubmit: async (ev) => {
        ev.preventDefault();
        token.set(input.value.trim());
        await enter(() => input.focus());
      },
    },
    h('label', { for: 'token' }, 'Token (ADMIN_TOKEN, or a personal token)'),
    input,
    h('div', {}, h('button', { type: 'submit' }, 'Log in')),
  );
  return h(
    'div',
    {},
    h('h1', {}, 'Log in'),
    signIn,
    h('h2', {}, 'Or with a token'),
    h(
      'p',
      {},
      'The token the server was started with (ADMIN_TOKEN) acts as the administrator. Whatever signs in is kept in this page only and sent as a Bearer token; a reload or closing the tab forgets it.',
    ),
    byToken,
  );
};

const render = async ({ keepError = false } = {}) => {
  const mine = ++renders;
  cleanup?.();
  cleanup = null;
  if (!keepError) ctx.clearError();
  const [path, search] = location.hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(search ?? '');
  if (!token.get()) {
    nav.hidden = true;
    main.replaceChildren(loginScreen());
    main.querySelector('input')?.focus();
    return;
  }
  nav.hidden = false;
  try {
    await ctx.me();
  } catch (e) {
    ctx.error(e);
    if (!token.get()) return;
  }
  const hit = ROUTES.map(([re, section, make]) => [re.exec(path || '/players'), section, make]).find(([m]) => m);
  if (!hit) {
    location.hash = '#/players';
    return;
  }
  const [m, section, make] = hit;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === `#/${section}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.replaceChildren(h('p', { class: 'note' }, 'Loading…'));
  let screen;
  try {
    screen = await make(query, m);
  } catch (e) {
    if (mine !== renders) return;
    ctx.error(e);
    screen = {
      node: h(
        'div',
        {},
        h('h1', {}, 'This screen could not be shown'),
        h('p', { class: 'note' }, 'The error above says why.'),
      ),
    };
  }
  if (mine !== renders) {
    screen.cleanup?.();
    return;
  }
  cleanup = screen.cleanup ?? null;
  main.replaceChildren(screen.node);
  document.title = `${main.querySelector('h1')?.textContent ?? 'hoshi'} · hoshi console`;
  const heading = main.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
};

document.getElementById('logout').addEventListener('click', async () => {
  // A console session ends on the server too; a token given by hand stays valid (revoke it to end it).
  if (meInfo?.via === 'session') await api('DELETE', '/admin/session').catch(() => undefined);
  forget();
  location.hash = '#/login';
  void render();
});
window.addEventListener('hashchange', () => void render());
void render();
