// @ts-check
/**
 * A few lines of DOM building instead of a framework: the dashboard is a handful of tables
 * and forms, served as plain ES modules with no build step and no dependency, and it runs
 * under `script-src 'self'`. Text goes in as text (never as HTML), so nothing a client sent
 * and the journal shows can run in this page.
 */

/**
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {Array<Node | string | number | null | undefined | false>} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
  return el;
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false).map((c) => (typeof c === 'object' ? c : String(c))));
}

/** The first characters of a UUID: enough to tell records apart on screen. */
export const short = (id) => (typeof id === 'string' ? id.slice(0, 8) : '');

/** An ISO instant as the time of day, UTC, to the second. */
export const timeOf = (iso) => (typeof iso === 'string' ? iso.slice(11, 19) : '');

/**
 * A table with a header row and one row per item; `empty` when there are none. It scrolls in
 * a box of its own, so a long or wide table never stretches the page (nor a phone's screen).
 */
export function table(columns, rows, empty) {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h('div', { class: 'table-scroll' }, h('table', {}, h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))), h('tbody', {}, ...rows)));
}
