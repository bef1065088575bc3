// @ts-check
import { h, fill } from './dom.js';
import { accountSections } from './account-sections.js';

/** Quotas in a word each. */
export const QUOTA_LABELS = { targets: 'targets', libraryItems: 'library', chats: 'chats', images: 'images', audio: 'audio', shares: 'shares', keys: 'keys', storedBytes: 'stored', faultRules: 'faults' };

/**
 * One account opened: every key with its scopes (hints only), every quota with what is used,
 * then the sections other modules register (account-sections.js), each in a block of its own.
 * @param {import('./api.js').ControlApi} api @param {any} account
 */
export function accountView(api, account) {
  const keys = h('ul', { class: 'account-keys' }, ...account.keys.map((k) => h('li', { class: k.revoked ? 'key revoked' : 'key' },
    h('code', {}, k.hint), ' ', ...(k.revoked ? [h('span', { class: 'scopes' }, 'revoked')] : [`${k.name} · `, h('span', { class: 'scopes' }, k.scopes.join(' ') || 'no scope')]))));
  const quotas = h('ul', { class: 'account-quotas' }, ...Object.entries(account.quotas ?? {}).map(([name, q]) =>
    h('li', { class: q.limit > 0 && q.used / q.limit >= 0.8 ? 'quota near' : 'quota' }, `${QUOTA_LABELS[name] ?? name}: ${q.used} of ${q.limit}`)));
  const sections = accountSections.map((section) => {
    const body = h('div', { class: 'account-section-body' }, '…');
    Promise.resolve()
      .then(() => section.render(account, api))
      .then((node) => fill(body, node), (error) => fill(body, h('span', { class: 'muted' }, error instanceof Error ? error.message : String(error))));
    return h('section', { class: 'account-section', dataset: { section: section.id } }, h('h3', {}, section.title), body);
  });
  return h('div', { class: 'account-view', dataset: { accountId: account.accountId } },
    h('p', {}, h('strong', {}, account.name), ' ', h('code', {}, account.accountId), h('span', { class: 'muted' }, ` · made ${account.createdAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`)),
    h('div', { class: 'account-view-parts' }, h('div', {}, h('h3', {}, 'Keys (hints)'), keys), h('div', {}, h('h3', {}, 'Quotas used'), quotas)),
    ...sections);
}
