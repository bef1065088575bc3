// @ts-check
import { h, fill, short, table } from './dom.js';
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
  const element = h('section', { id: 'accounts' }, h('h2', {}, 'Accounts ', total), create, created, body);
  return {
    element,
    /** @param {{ data: any[], total: number }} accounts */
    show(accounts) {
      fill(total, `(${accounts.total})`);
      const rows = accounts.data.map((a) => h('tr', { dataset: { accountId: a.accountId } },
        h('td', {}, a.name, h('br'), h('code', { title: a.accountId }, short(a.accountId))),
        h('td', { class: 'num balance' }, a.balance),
        h('td', { class: 'num' }, a.builds),
        accountClockCell(api, app, a),
        h('td', {}, ...a.keys.map((k) => h('div', { class: k.revoked ? 'key revoked' : 'key' }, h('code', {}, k.hint), ` ${k.scopes.join(' ')}${k.revoked ? ' (revoked)' : ''}`))),
        quotaCell(a.quotas),
        h('td', {}, h('button', {
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
        }, 'Reset'))));
      fill(body, table(['Account', 'Balance', 'Builds', 'Clock', 'Keys (hints)', 'Quotas used', ''], rows, 'No account yet.'));
    },
  };
}

const QUOTA_LABELS = { targets: 'targets', libraryItems: 'library', chats: 'chats', images: 'images', audio: 'audio', shares: 'shares', keys: 'keys', storedBytes: 'stored', faultRules: 'faults' };

/**
 * What the account uses of each quota, the fullest first; a quota at 80% or more is marked.
 * @param {Record<string, { limit: number, used: number }>} quotas
 */
function quotaCell(quotas) {
  const entries = Object.entries(quotas ?? {}).map(([name, q]) => ({ name, ...q, share: q.limit === 0 ? 1 : q.used / q.limit }));
  entries.sort((x, y) => y.share - x.share);
  return h('td', { class: 'quotas' }, ...entries.slice(0, 3).map((q) =>
    h('div', { class: q.share >= 0.8 ? 'quota near' : 'quota', title: `${q.used} of ${q.limit}` }, `${QUOTA_LABELS[q.name] ?? q.name} ${Math.round(q.share * 100)}%`)));
}
