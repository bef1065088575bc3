// @ts-check
import { h } from './dom.js';

/** Rows drawn beyond each edge of the visible part, so a quick scroll shows no gap. */
const OVERSCAN = 12;
/** Until a row has been measured: close to what the stylesheet gives. */
const GUESSED_ROW_PX = 30;

/**
 * A table of thousands of rows in a scroll box of fixed height that keeps in the DOM only the
 * rows in view (and a few around them): spacers above and below stand for the rest, so the
 * page neither grows nor slows with the list. Every row has the same height; one row at a
 * time may be opened, and its details row (any height, measured) follows it.
 *
 * @template T
 * @param {{
 *   id: string,
 *   columns: string[],
 *   empty: string,
 *   row: (item: T) => HTMLElement,
 *   details: (item: T) => HTMLElement,
 *   key: (item: T) => number,
 * }} options
 */
export function windowedTable(options) {
  /** @type {T[]} */
  let items = [];
  /** @type {number | undefined} */
  let openKey;
  let rowPx = GUESSED_ROW_PX;
  let detailsPx = 0;
  let scheduled = 0;
  /** Rows already built, by item: scrolling back and forth re-uses them. */
  const built = new WeakMap();

  const above = h('div', { class: 'window-spacer', 'aria-hidden': 'true' });
  const below = h('div', { class: 'window-spacer', 'aria-hidden': 'true' });
  const tbody = h('tbody', {});
  const table = h('table', { class: 'windowed' }, h('thead', {}, h('tr', {}, ...options.columns.map((c) => h('th', {}, c)))), tbody);
  const empty = h('p', { class: 'empty' }, options.empty);
  const scroller = h('div', { id: options.id, class: 'window-scroll', tabindex: '0' }, above, table, below, empty);
  scroller.addEventListener('scroll', () => schedule());

  const openIndex = () => (openKey === undefined ? -1 : items.findIndex((item) => options.key(item) === openKey));
  /** Where row `i` starts, in px from the top of the list (the header aside). */
  const topOf = (i, open) => i * rowPx + (open >= 0 && i > open ? detailsPx : 0);

  function rowFor(item) {
    let row = built.get(item);
    if (!row) {
      row = options.row(item);
      row.tabIndex = 0;
      const toggle = () => {
        openKey = openKey === options.key(item) ? undefined : options.key(item);
        draw();
      };
      row.addEventListener('click', toggle);
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          toggle();
        }
      });
      built.set(item, row);
    }
    return row;
  }

  /** @type {{ key: number, row: HTMLElement } | undefined} */
  let opened;
  const resized = new ResizeObserver(() => schedule());
  /** The open row's details, kept while it stays open: live redraws keep their scroll. */
  function detailsFor(item) {
    if (opened?.key !== options.key(item)) {
      opened = { key: options.key(item), row: options.details(item) };
      // Details that fill in later (read from the server) change height: the rows below move with it.
      resized.disconnect();
      resized.observe(opened.row);
    }
    return opened.row;
  }

  function draw() {
    cancelAnimationFrame(scheduled);
    scheduled = 0;
    table.hidden = items.length === 0;
    empty.hidden = items.length > 0;
    const open = openIndex();
    if (open === -1) openKey = undefined;
    const total = items.length * rowPx + (open >= 0 ? detailsPx : 0);
    const header = table.tHead?.offsetHeight ?? 0;
    const scrolled = Math.max(0, scroller.scrollTop - header);
    // The first row in view; within the open row's details, the open row (its details follow it).
    let first = Math.floor(scrolled / rowPx);
    if (open >= 0 && scrolled >= topOf(open + 1, open)) first = Math.floor((scrolled - detailsPx) / rowPx);
    else if (open >= 0 && scrolled >= topOf(open, open)) first = open;
    first = Math.min(items.length, first);
    const start = Math.max(0, first - OVERSCAN);
    const end = Math.min(items.length, first + Math.ceil(scroller.clientHeight / rowPx) + OVERSCAN);
    const rows = [];
    for (let i = start; i < end; i++) {
      const item = /** @type {T} */ (items[i]);
      const row = rowFor(item);
      row.setAttribute('aria-expanded', String(i === open));
      rows.push(row);
      if (i === open) rows.push(detailsFor(item));
    }
    place(rows);
    above.style.height = `${topOf(start, open)}px`;
    below.style.height = `${Math.max(0, total - topOf(end, open))}px`;
    measure(open, start, end);
  }

  /**
   * Puts `rows` in the body, moving none that stays: a row taken out and put back loses its
   * focus, and Chromium then scrolls the box to where the focus went.
   * @param {HTMLElement[]} rows
   */
  function place(rows) {
    const wanted = new Set(rows);
    for (const child of [...tbody.children]) if (!wanted.has(/** @type {HTMLElement} */ (child))) child.remove();
    let at = tbody.firstElementChild;
    for (const row of rows) {
      if (row === at) at = at.nextElementSibling;
      else tbody.insertBefore(row, at);
    }
  }

  /** Takes the real heights once rows are drawn; draws again if the guess was off. */
  function measure(open, start, end) {
    const first = tbody.rows[0];
    let changed = false;
    if (first && !first.classList.contains('details')) {
      const px = first.getBoundingClientRect().height;
      if (px > 0 && Math.abs(px - rowPx) > 0.5) {
        rowPx = px;
        changed = true;
      }
    }
    if (open >= start && open < end) {
      const details = tbody.querySelector('tr.details');
      const px = details instanceof HTMLElement ? details.getBoundingClientRect().height : 0;
      if (Math.abs(px - detailsPx) > 0.5) {
        detailsPx = px;
        changed = true;
      }
    }
    if (changed) draw();
  }

  function schedule() {
    if (!scheduled) scheduled = requestAnimationFrame(draw);
  }

  return {
    element: scroller,
    /** The items, in the order shown. */
    get items() {
      return items;
    },
    /**
     * Shows `next`. `added` items were put in front of the old ones: a reader who has scrolled
     * down keeps the rows in view where they are, one at the top sees the new ones.
     * @param {T[]} next @param {number} [added]
     */
    show(next, added = 0) {
      const kept = added > 0 && scroller.scrollTop > 0 ? scroller.scrollTop + added * rowPx : undefined;
      items = next;
      draw();
      if (kept !== undefined) scroller.scrollTop = kept;
    },
    /** Whether the reader has scrolled away from the first row. */
    get scrolledAway() {
      return scroller.scrollTop > 0;
    },
    toTop() {
      scroller.scrollTop = 0;
      schedule();
    },
  };
}
