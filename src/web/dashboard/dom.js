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
  const box = h('div', { class: 'table-scroll', tabindex: '0' }, h('table', {}, h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))), h('tbody', {}, ...rows)));
  const hint = sideScrollHint(box);
  // Once laid out: a box that cuts its last visible row in half ends at that row's bottom instead.
  requestAnimationFrame(() => fitWholeRows(box));
  return h('div', { class: 'table-wrap' }, hint, box);
}

/**
 * A line that says a box has columns past its right edge (a phone hides Status and Keys there),
 * shown while it has, with a shadow on that edge; both go once the box is scrolled to its end.
 * @param {HTMLElement} box
 */
export function sideScrollHint(box) {
  const hint = h('p', { class: 'scroll-hint', hidden: true }, 'More columns: scroll sideways →');
  const update = () => {
    const more = box.scrollWidth - box.clientWidth - box.scrollLeft > 4;
    hint.hidden = !more;
    box.classList.toggle('more-right', more);
  };
  box.addEventListener('scroll', update, { passive: true });
  // Its size changes with the window and with what it holds; the observer goes with the box.
  new ResizeObserver(update).observe(box);
  return hint;
}

/**
 * Puts a new table in `container` where the last one was, scrolled where the person left it:
 * the dashboard redraws every second, and a phone's reader who scrolled to the Keys column
 * must stay there.
 * @param {HTMLElement} container @param {string[]} columns @param {HTMLElement[]} rows @param {string} empty
 */
export function fillTable(container, columns, rows, empty) {
  const old = container.querySelector('.table-scroll');
  const at = old ? { left: old.scrollLeft, top: old.scrollTop } : undefined;
  fill(container, table(columns, rows, empty));
  const box = container.querySelector('.table-scroll');
  if (box && at) {
    box.scrollLeft = at.left;
    box.scrollTop = at.top;
  }
}

/** Shortens a scrolling box to end between two rows, never across one. @param {HTMLElement} box */
function fitWholeRows(box) {
  box.style.maxHeight = '';
  const limit = box.clientHeight;
  if (box.scrollHeight <= limit + 1) return;
  const top = box.getBoundingClientRect().top - box.scrollTop;
  let end = 0;
  for (const row of box.querySelectorAll('tbody > tr')) {
    const bottom = row.getBoundingClientRect().bottom - top;
    if (bottom > limit) break;
    end = bottom;
  }
  if (end > 0) box.style.maxHeight = `${Math.ceil(end)}px`;
}
