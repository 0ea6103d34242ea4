// Sending presents: to one player, a list, or every player, with a title, a message
// and a deadline. The preview (GET /admin/presents/reach) says whom it reaches; the
// send button is offered only for the request previewed, and any change asks again.
// What is granted is named from the game data as it is typed (GET /admin/master/names),
// and the preview refuses what the send would (an item the game data lacks: 107).
import { api } from './api.js';
import { fill, h } from './dom.js';
import { int } from './format.js';

const KINDS = ['gold', 'gem', 'paidGem', 'kirara', 'item', 'character', 'weapon', 'roomObject', 'townFacility'];
const CURRENCIES = new Set(['gold', 'gem', 'paidGem', 'kirara']);

export const presentsScreen = async (ctx, query) => {
  const named = query.get('playerIds') ?? '';
  const names = await ctx.names();
  const toList = h('input', { type: 'radio', name: 'target', id: 'target-list', value: 'list', checked: true });
  const toAll = h('input', { type: 'radio', name: 'target', id: 'target-all', value: 'all' });
  const ids = h('input', { id: 'present-ids', value: named, placeholder: '12, 15, 40', autocomplete: 'off' });
  const kind = h(
    'select',
    { id: 'present-kind' },
    KINDS.map((k) => h('option', { value: k }, k)),
  );
  const objectId = h('input', { id: 'present-object', type: 'number', min: 0, value: 0, inputmode: 'numeric' });
  /** The object's name as the game data gives it, beside its id. */
  const objectName = h('output', {
    id: 'present-object-name',
    class: 'note',
    for: 'present-kind present-object',
    'aria-live': 'polite',
  });
  const nameObject = () => {
    const id = Number(objectId.value || 0);
    objectName.textContent = CURRENCIES.has(kind.value)
      ? `${kind.value}: a currency (object id 0)`
      : (names.nameOf(kind.value, id) ?? `no ${kind.value} ${id} in the game data`);
  };
  kind.addEventListener('change', nameObject);
  objectId.addEventListener('input', nameObject);
  nameObject();
  const amount = h('input', {
    id: 'present-amount',
    type: 'number',
    min: 1,
    value: 100,
    required: true,
    inputmode: 'numeric',
  });
  const title = h('input', { id: 'present-title', maxlength: 64, required: true });
  const message = h('textarea', { id: 'present-message', maxlength: 1000 });
  const deadline = h('input', {
    id: 'present-deadline',
    placeholder: '2026-12-31T23:59:59',
    size: 28,
    autocomplete: 'off',
  });
  const preview = h('div', { class: 'panel', hidden: true, 'aria-live': 'polite' });
  const sendButton = h('button', { type: 'button', id: 'present-send', disabled: true }, 'Send');
  const result = h('div', { role: 'status' });
  let previewed = null;

  /** The request the form describes, or why it cannot be made. */
  const request = () => {
    const body = {
      grant: { kind: kind.value, objectId: Number(objectId.value || 0), amount: Number(amount.value) },
      title: title.value.trim(),
      message: message.value.trim(),
    };
    const d = deadline.value.trim();
    if (d) body.deadline = d;
    if (toAll.checked) return { body: { ...body, all: true }, reach: 'all=true' };
    const list = ids.value.split(/[\s,]+/).filter(Boolean);
    if (list.length === 0) throw new Error('Name at least one player id, or choose every player.');
    if (list.some((x) => !/^\d+$/.test(x))) throw new Error('Player ids are whole numbers, separated by commas.');
    const numbers = [...new Set(list.map(Number))];
    return {
      body: numbers.length === 1 ? { ...body, playerId: numbers[0] } : { ...body, playerIds: numbers },
      reach: `playerIds=${numbers.join(',')}`,
    };
  };
  const invalidate = () => {
    if (!previewed) return;
    previewed = null;
    sendButton.disabled = true;
    sendButton.textContent = 'Send';
    fill(preview, h('p', { class: 'note' }, 'The form changed: preview again before sending.'));
  };
  const onPreview = async (ev) => {
    ev.preventDefault();
    fill(result);
    let r;
    try {
      r = request();
    } catch (e) {
      ctx.error(e.message);
      return;
    }
    try {
      const grant = new URLSearchParams({ kind: r.body.grant.kind, objectId: String(r.body.grant.objectId) });
      const reach = await api('GET', `/admin/presents/reach?${r.reach}&${grant}`);
      ctx.clearError();
      previewed = JSON.stringify(r.body);
      const skipped = [
        reach.boxFull ? `${int(reach.boxFull)} with a full gift box` : '',
        reach.notFound ? `${int(reach.notFound)} not found` : '',
      ].filter(Boolean);
      const whom = r.body.all ? 'every player' : `${int(reach.players)} player${reach.players === 1 ? '' : 's'} named`;
      preview.hidden = false;
      fill(
        preview,
        h('h2', { id: 'preview-h', tabindex: '-1' }, 'Preview'),
        h(
          'p',
          { id: 'present-reach' },
          `This present reaches ${int(reach.reaches)} player${reach.reaches === 1 ? '' : 's'} of ${whom}.`,
          skipped.length ? ` Skipped: ${skipped.join(', ')}.` : '',
        ),
        h(
          'p',
          { id: 'present-what' },
          `“${r.body.title}”: ${names.grant(r.body.grant)}, ${r.body.deadline ? `until ${r.body.deadline}` : 'no deadline'}.`,
        ),
        sendButton,
      );
      sendButton.disabled = reach.reaches === 0;
      sendButton.textContent = `Send to ${int(reach.reaches)} player${reach.reaches === 1 ? '' : 's'}`;
      preview.querySelector('h2').focus();
    } catch (e) {
      ctx.error(e);
    }
  };
  sendButton.addEventListener('click', async () => {
    let r;
    try {
      r = request();
    } catch {
      invalidate();
      return;
    }
    if (JSON.stringify(r.body) !== previewed) {
      invalidate();
      return;
    }
    sendButton.disabled = true;
    try {
      const answer = await api('POST', '/admin/presents', r.body);
      ctx.clearError();
      previewed = null;
      const message = `Sent “${r.body.title}” to ${int(answer.sent)} player${answer.sent === 1 ? '' : 's'}.`;
      ctx.status(message);
      fill(
        result,
        h('p', { class: 'ok', id: 'present-result', tabindex: '-1' }, message),
        r.body.playerId
          ? h('p', {}, h('a', { href: `#/player/${r.body.playerId}` }, `See player ${r.body.playerId}'s gift box`))
          : null,
      );
      preview.hidden = true;
      result.querySelector('p').focus();
    } catch (e) {
      sendButton.disabled = false;
      ctx.error(e);
    }
  });

  const form = h(
    'form',
    { class: 'stack', onsubmit: onPreview, oninput: invalidate, onchange: invalidate },
    h(
      'fieldset',
      {},
      h('legend', {}, 'Send to'),
      h('label', { for: 'target-list' }, toList, 'These players'),
      h('label', { for: 'present-ids' }, 'Player ids (comma-separated)', ids),
      h('label', { for: 'target-all' }, toAll, 'Every player'),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'What'),
      h('label', { for: 'present-kind' }, 'Kind', kind),
      h('label', { for: 'present-object' }, 'Object id (0 for currencies)', objectId),
      objectName,
      h('label', { for: 'present-amount' }, 'Amount', amount),
    ),
    h('label', { for: 'present-title' }, 'Title (shown to players, up to 64 characters)', title),
    h('label', { for: 'present-message' }, 'Message (up to 1,000 characters)', message),
    h(
      'label',
      { for: 'present-deadline' },
      'Deadline: game time (2026-12-31T23:59:59) or ISO 8601 with a zone; empty for none',
      deadline,
    ),
    h('div', {}, h('button', { type: 'submit' }, 'Preview')),
  );
  return { node: h('div', {}, h('h1', {}, 'Presents'), form, preview, result) };
};
