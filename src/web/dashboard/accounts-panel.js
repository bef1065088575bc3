// @ts-check
import { h, fill, fillTable, short } from './dom.js';
import { accountClockCell } from './account-clock-cell.js';

/**
 * Accounts with balances and key hints (never keys), each with its own reset.
 * @param {import('./api.js').ControlApi} api @param {{ refresh: () => void, report: (e: unknown) => void }} app
 */
export function accountsPanel(api, app) {
  const body = h('div', {});
  const total = h('span', { class: 'count' }, '');
  const create = h('button', {
    id: 'account-create',
    type: 'button',
    onclick: async () => {
      try {
        const made = await api.post('/_sim/accounts', { name: 'Dashboard account' });
        fill(created, `Account ${short(made.accountId)} made; its read+write key, shown this once: `, h('code', {}, made.keys.readWrite));
        app.refresh();
      } catch (error) {
        app.report(error);
      }
    },
  }, 'New account');
  const created = h('p', { id: 'account-made', role: 'status' });
  let shown = '';
  const element = h('section', { id: 'accounts' }, h('h2', {}, 'Accounts ', total), create, created, body);
  return {
    element,
    /** @param {{ data: any[], total: number }} accounts */
    show(accounts) {
      // Redrawn only when something changed: the page polls every second, and a table redrawn
      // for nothing loses what the reader was doing in it (a scroll, a selection).
      const seen = JSON.stringify(accounts);
      if (seen === shown) return;
      shown = seen;
      fill(total, `(${accounts.total})`);
      const rows = accounts.data.map((a) => h('tr', { dataset: { accountId: a.accountId } },
        // Its Reset beside its id: one column fewer, so the keys fit beside it in half a page.
        h('td', { class: 'account' }, a.name, h('br'), h('code', { title: a.accountId }, short(a.accountId)), ' ', h('button', {
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
        h('td', { class: 'keys' }, ...a.keys.map((k) => h('span', {
          class: k.revoked ? 'key revoked' : 'key',
          title: `${k.name}: ${k.scopes.join(' ')}${k.revoked ? ' (revoked)' : ''}`,
        }, h('code', {}, k.hint), ' ', h('span', { class: 'scopes' }, k.revoked ? 'revoked' : scopeLabel(k.scopes))))),
        quotaCell(a.quotas)));
      fillTable(body, ['Account', 'Balance', 'Builds', 'Clock', 'Keys (hints)', 'Quotas used'], rows, 'No account yet.');
    },
  };
}

const QUOTA_LABELS = { targets: 'targets', libraryItems: 'library', chats: 'chats', images: 'images', audio: 'audio', shares: 'shares', keys: 'keys', storedBytes: 'stored', faultRules: 'faults' };

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
  return h('td', { class: 'quotas', title: entries.map((q) => `${label(q)} (${q.used} of ${q.limit})`).join('\n') },
    ...(fullest ? [h('span', { class: fullest.share >= 0.8 ? 'quota near' : 'quota' }, label(fullest))] : []));
}

/** A key's scopes in a word: one short line per key, whatever the column's width. @param {string[]} scopes */
function scopeLabel(scopes) {
  const read = scopes.includes('svc:read');
  const write = scopes.includes('svc:write');
  return read && write ? 'read+write' : read ? 'read' : write ? 'write' : 'no scope';
}
