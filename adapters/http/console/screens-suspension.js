// A player's suspensions, on the player screen: suspended now or not, the history
// (with the reasons, which only operators see), suspend until a time or indefinitely,
// and lift.
import { api } from './api.js';
import { fill, h, table } from './dom.js';

export const suspensionPanel = (ctx, playerId) => {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'suspension-h' });
  const load = async (said) => {
    let answer;
    try {
      answer = await api('GET', `/admin/players/${playerId}/suspend`);
    } catch (e) {
      ctx.error(e);
      return;
    }
    const until = h('input', { id: 'suspend-until', placeholder: 'empty: until lifted' });
    const reason = h('textarea', { id: 'suspend-reason', rows: 2, maxlength: 500, required: true });
    const act = async (call, what) => {
      try {
        await call();
        ctx.clearError();
        await load(what);
        panel.querySelector('h2')?.focus();
      } catch (e) {
        ctx.error(e);
      }
    };
    const onSuspend = (e) => {
      e.preventDefault();
      const body = { reason: reason.value };
      if (until.value.trim() !== '') body.until = until.value.trim();
      void act(() => api('POST', `/admin/players/${playerId}/suspend`, body), 'Suspended: the sessions ended.');
    };
    fill(
      panel,
      h('h2', { id: 'suspension-h', tabindex: '-1' }, 'Suspension'),
      said ? h('p', { class: 'ok', role: 'status' }, said) : null,
      h(
        'p',
        { id: 'suspended-now', class: answer.suspended ? 'danger' : 'ok' },
        answer.suspended ? 'Suspended now: every request answers 204.' : 'Not suspended.',
        answer.suspended
          ? h(
              'button',
              {
                type: 'button',
                id: 'lift-suspension',
                'data-needs': 'support',
                onclick: () => act(() => api('DELETE', `/admin/players/${playerId}/suspend`), 'Suspension lifted.'),
              },
              'Lift',
            )
          : null,
      ),
      table(
        'Suspensions, oldest first',
        ['From', 'Until', 'Reason (operators only)', 'By', 'Lifted'],
        answer.suspensions.map((x) => [x.from, x.until ?? 'until lifted', x.reason, x.by, x.liftedAt ?? '']),
        { empty: 'never suspended.' },
      ),
      h(
        'form',
        { class: 'stack', onsubmit: onSuspend, 'aria-label': 'Suspend this player', 'data-needs': 'support' },
        h('label', { for: 'suspend-until' }, 'Until (game time; empty: until lifted)'),
        until,
        h('label', { for: 'suspend-reason' }, 'Reason (kept for operators, never shown to the player)'),
        reason,
        h('button', { type: 'submit', class: 'danger' }, 'Suspend'),
      ),
    );
  };
  return { panel, load };
};
