// @ts-check
import { h, fill, short, table } from './dom.js';

/**
 * The scenarios loaded (`--scenario`, `POST /_sim/scenarios`, a test fixture): each with its
 * accounts by the scenario's names (never their keys, which only the load answer shows).
 * Shown once one is loaded: a simulator without scenarios keeps its page short.
 */
export function scenariosPanel() {
  const list = h('div', {});
  const element = h('section', { id: 'scenarios' }, h('h2', {}, 'Scenarios'), list);
  return {
    element,
    /** @param {{ data: Array<{ scenario: string, description: string | null, loadedAt: string, accounts: Array<{ name: string, accountId: string }> }> }} listing */
    show(listing) {
      element.hidden = listing.data.length === 0;
      const rows = listing.data.map((s) =>
        h('tr', {},
          h('td', {}, h('strong', {}, s.scenario), s.description ? h('div', { class: 'muted' }, s.description) : ''),
          h('td', {}, ...s.accounts.map((a) => h('div', { title: a.accountId }, `${a.name} · ${short(a.accountId)}`))),
          h('td', {}, s.loadedAt)));
      fill(list, table(['Scenario', 'Accounts', 'Loaded at'], rows, 'No scenario loaded: start with --scenario FILE, or POST one to /_sim/scenarios.'));
    },
  };
}
