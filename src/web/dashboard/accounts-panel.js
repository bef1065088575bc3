// @ts-check
import { h, fill, short } from './dom.js';
import { accountClockCell } from './account-clock-cell.js';
import { accountView, QUOTA_LABELS } from './account-view.js';

/** Accounts a page shows: a shared simulator has dozens, each row a few lines tall. */
export const PAGE_SIZE = 10;

/**
 * Accounts with balances and key hints (never keys): filtered by name or id, a page at a time,
 * newest first; an account's name opens its view (every key and quota, and the sections other
 * modules add: account-sections.js). Each has its own reset.
 * @param {import('./api.js').ControlApi} api @param {{ refresh: () => void, report: (e: unknown) => void }} app
 */
export function accountsPanel(api, app) {
  const body = h('div', { class: 'accounts-table' });
  const total = h('span', { class: 'count' }, '');
  const filter = h('input', { id: 'account-filter', type: 'search', placeholder: 'filter by name or id', 'aria-label': 'filter accounts by name or id' });
  const pager = h('span', { id: 'accounts-page', class: 'muted' }, '');
  const previous = h('button', { id: 'accounts-previous', type: 'button', onclick: () => turn(-1) }, '← Newer');
  const next = h('button', { id: 'accounts-next', type: 'button', onclick: () => turn(1) }, 'Older →');
  // Only when there is more than one page.
  const pagesShown = h('span', { class: 'pages' }, previous, ' ', pager, ' ', next);
  const name = h('input', { id: 'account-name', placeholder: 'name (optional)', 'aria-label': 'name of the new account', maxlength: '120' });
  const created = h('p', { id: 'account-made', role: 'status' });
  const create = h('form', {
    class: 'account-create',
    onsubmit: async (/** @type {Event} */ event) => {
      event.preventDefault();
      const wanted = /** @type {HTMLInputElement} */ (name).value.trim();
      try {
        const made = await api.post('/_sim/accounts', wanted ? { name: wanted } : {});
        fill(created, `${made.name} (${short(made.accountId)}) made; its read+write key, shown this once: `, h('code', {}, made.keys.readWrite));
        /** @type {HTMLInputElement} */ (name).value = '';
        app.refresh();
      } catch (error) {
        app.report(error);
      }
    },
  }, name, h('button', { id: 'account-create', type: 'submit' }, 'New account'));
  /** @type {any[]} */
  let accounts = [];
  let count = 0;
  let page = 0;
  /** @type {string | undefined} */
  let openId;
  let shown = '';

  const matching = () => {
    const wanted = /** @type {HTMLInputElement} */ (filter).value.trim().toLowerCase();
    return wanted ? accounts.filter((a) => a.name.toLowerCase().includes(wanted) || a.accountId.toLowerCase().startsWith(wanted)) : accounts;
  };
  const turn = (/** @type {number} */ by) => {
    page += by;
    draw(true);
  };
  filter.addEventListener('input', () => {
    page = 0;
    draw(true);
  });

  /** @param {boolean} [force] */
  function draw(force = false) {
    const list = matching();
    const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    page = Math.min(Math.max(0, page), pages - 1);
    const slice = list.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
    // Redrawn only when something changed: the page polls every second, and a table redrawn
    // for nothing loses what the reader was doing in it (a selection, a half-typed name).
    const seen = JSON.stringify([slice, openId, count]);
    if (!force && seen === shown) return;
    shown = seen;
    fill(total, `(${count})`);
    const listed = count > accounts.length ? ` of the newest ${accounts.length}` : '';
    fill(pager, list.length === 0 ? '' : `${page * PAGE_SIZE + 1}–${page * PAGE_SIZE + slice.length} of ${list.length}${listed}`);
    /** @type {HTMLButtonElement} */ (previous).disabled = page === 0;
    /** @type {HTMLButtonElement} */ (next).disabled = page >= pages - 1;
    /** @type {HTMLElement} */ (pagesShown).hidden = pages === 1 && list.length === accounts.length;
    const rows = slice.flatMap((a) => {
      const open = a.accountId === openId;
      const row = accountRow(api, app, a, open, () => {
        openId = open ? undefined : a.accountId;
        draw(true);
      });
      return open ? [row, h('tr', { class: 'details' }, h('td', { colspan: '6' }, accountView(api, a)))] : [row];
    });
    const head = h('thead', {}, h('tr', {}, ...['Account', 'Balance', 'Builds', 'Clock', 'Keys (hints)', 'Quotas used'].map((c, i) => h('th', { class: i >= 4 ? 'wide-only' : '' }, c))));
    fill(body, rows.length === 0
      ? h('p', { class: 'empty' }, accounts.length === 0 ? 'No account yet.' : 'No account matches the filter.')
      : h('table', { class: 'accounts' }, head, h('tbody', {}, ...rows)));
  }

  const element = h('section', { id: 'accounts' },
    // The filter beside the heading: on a phone too, one line for both.
    h('div', { class: 'panel-head filters' }, h('h2', {}, 'Accounts ', total), filter, pagesShown),
    body,
    create, created);
  return {
    element,
    /** @param {{ data: any[], total: number }} list */
    show(list) {
      accounts = list.data;
      count = list.total;
      draw();
    },
  };
}

/** @param {import('./api.js').ControlApi} api @param {{ refresh: () => void, report: (e: unknown) => void }} app @param {any} a @param {boolean} open @param {() => void} toggle */
function accountRow(api, app, a, open, toggle) {
  return h('tr', { dataset: { accountId: a.accountId } },
    h('td', { class: 'account' },
      h('button', { type: 'button', class: 'account-open link', 'aria-expanded': String(open), title: 'its keys, quotas and more', onclick: toggle }, a.name),
      h('br'), h('code', { title: a.accountId }, short(a.accountId)), ' ',
      h('button', {
        type: 'button',
        class: 'account-reset',
        onclick: async () => {
          if (!confirm(`Empty account ${a.name}? Its keys stay; its targets, builds and library go.`)) return;
          try {
            // Encoded: an id is data, and must never reach another path of the control API.
            await api.post(`/_sim/accounts/${encodeURIComponent(a.accountId)}/reset`);
            app.refresh();
          } catch (error) {
            app.report(error);
          }
        },
      }, 'Reset')),
    h('td', { class: 'num balance' }, a.balance),
    h('td', { class: 'num' }, a.builds),
    accountClockCell(api, app, a),
    h('td', { class: 'keys wide-only' }, ...a.keys.map((k) => h('span', {
      class: k.revoked ? 'key revoked' : 'key',
      title: `${k.name}: ${k.scopes.join(' ')}${k.revoked ? ' (revoked)' : ''}`,
    }, h('code', {}, k.hint), ' ', h('span', { class: 'scopes' }, k.revoked ? 'revoked' : scopeLabel(k.scopes))))),
    quotaCell(a.quotas));
}

/**
 * What the account uses of its quotas, in one line: the fullest one (marked at 80% or more),
 * every quota in its title.
 * @param {Record<string, { limit: number, used: number }>} quotas
 */
function quotaCell(quotas) {
  const entries = Object.entries(quotas ?? {}).map(([name, q]) => ({ name, ...q, share: q.limit === 0 ? 1 : q.used / q.limit }));
  entries.sort((x, y) => y.share - x.share);
  const label = (q) => `${QUOTA_LABELS[q.name] ?? q.name} ${Math.round(q.share * 100)}%`;
  const fullest = entries[0];
  return h('td', { class: 'quotas wide-only', title: entries.map((q) => `${label(q)} (${q.used} of ${q.limit})`).join('\n') },
    ...(fullest ? [h('span', { class: fullest.share >= 0.8 ? 'quota near' : 'quota' }, label(fullest))] : []));
}

/** A key's scopes in a word: one short line per key, whatever the column's width. @param {string[]} scopes */
function scopeLabel(scopes) {
  const read = scopes.includes('svc:read');
  const write = scopes.includes('svc:write');
  return read && write ? 'read+write' : read ? 'read' : write ? 'write' : 'no scope';
}
