// Building the page from data without innerHTML: text is always text.
export const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
};

/** Replaces an element's children with these, leaving out the absent ones (null, false). */
export const fill = (el, ...children) =>
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false));

/** A table with a caption; numeric columns (by index) right-aligned. Rows are arrays of cells (text or nodes). */
export const table = (caption, headers, rows, { numeric = [], empty = 'None.' } = {}) => {
  if (rows.length === 0)
    return h(
      'div',
      {},
      h('h3', { class: 'visually-hidden' }, caption),
      h('p', { class: 'note' }, `${caption}: ${empty}`),
    );
  const cls = (i) => (numeric.includes(i) ? 'num' : undefined);
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((x, i) => h('th', { scope: 'col', class: cls(i) }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            r.map((c, i) => h('td', { class: cls(i) }, c)),
          ),
        ),
      ),
    ),
  );
};

/** Facts as a definition list: [term, value] pairs. */
export const facts = (pairs) =>
  h(
    'dl',
    { class: 'facts' },
    pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
  );
