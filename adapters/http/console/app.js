// The console's shell: the log-in, the navigation, one screen at a time by the
// address's hash (#/players, #/player/12, #/presents, #/gachas, #/gacha/2,
// #/health, #/master), errors in words in one alert, and the focus moved to each
// new screen's heading so that a keyboard (or a screen reader) lands on it.
import { api, ApiError, describe, token } from './api.js';
import { h } from './dom.js';
import { findScreen, playerScreen } from './screens-players.js';
import { presentsScreen } from './screens-presents.js';
import { gachaScreen, gachasScreen } from './screens-gachas.js';
import { healthScreen, masterScreen } from './screens-health.js';
import { gameDataScreen } from './screens-gamedata.js';
import { liveOpsScreen } from './screens-liveops.js';

const main = document.getElementById('main');
const errorBox = document.getElementById('error');
const statusBox = document.getElementById('status');
const nav = document.getElementById('nav');

let masterInfo = null;
let renders = 0;
let cleanup = null;

const ctx = {
  /** Shows an error in words; a refused token returns to the log-in. */
  error(e) {
    errorBox.textContent = typeof e === 'string' ? e : describe(e);
    errorBox.hidden = false;
    if (e instanceof ApiError && e.status === 401) {
      token.clear();
      masterInfo = null;
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
  /** GET /admin/master, once per log-in: the game's time zone for stored times. */
  async master() {
    return (masterInfo ??= await api('GET', '/admin/master'));
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
];

const loginScreen = () => {
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const form = h(
    'form',
    {
      class: 'stack',
      onsubmit: async (ev) => {
        ev.preventDefault();
        token.set(input.value.trim());
        try {
          await ctx.master();
          ctx.clearError();
          if (location.hash === '' || location.hash === '#/' || location.hash === '#/login')
            location.hash = '#/players';
          else void render();
        } catch (e) {
          token.clear();
          masterInfo = null;
          ctx.error(
            e instanceof ApiError && e.status === 401
              ? new ApiError(401, e.resultCode, `The token was refused: ${e.message}`)
              : e,
          );
          input.focus();
        }
      },
    },
    h('label', { for: 'token' }, 'Admin token'),
    input,
    h('div', {}, h('button', { type: 'submit' }, 'Log in')),
  );
  return h(
    'div',
    {},
    h('h1', {}, 'Log in'),
    h(
      'p',
      {},
      'The console works through the operator API with the token the server was started with (ADMIN_TOKEN). It is kept in this browser tab only and sent as a Bearer token; closing the tab forgets it.',
    ),
    form,
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

document.getElementById('logout').addEventListener('click', () => {
  token.clear();
  masterInfo = null;
  location.hash = '#/login';
  void render();
});
window.addEventListener('hashchange', () => void render());
void render();
