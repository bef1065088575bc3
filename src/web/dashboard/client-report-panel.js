// @ts-check
import { h, fill, short, table } from './dom.js';

/**
 * One account's client report: the service's rules for clients its client broke, each with
 * its count, first and last time, first example and advice (GET /_sim/accounts/{id}/client-report).
 * The account is chosen here; the report is read again with every refresh of the page.
 * @param {import('./api.js').ControlApi} api @param {{ report: (e: unknown) => void }} app
 */
export function clientReportPanel(api, app) {
  const account = /** @type {HTMLSelectElement} */ (h('select', { id: 'client-report-account', 'aria-label': 'Account', onchange: () => void refresh() }));
  const list = h('div', { id: 'client-report-findings' });
  const element = h('section', { id: 'client-report' }, h('h2', {}, 'Client report'), h('label', {}, 'Account ', account), list);
  let shown = '';

  async function refresh() {
    if (!account.value) return void fill(list, h('p', { class: 'muted' }, 'Choose an account to see the rules its client broke.'));
    try {
      const report = await api.get(`/_sim/accounts/${encodeURIComponent(account.value)}/client-report`);
      const seen = JSON.stringify(report);
      if (seen === shown) return;
      shown = seen;
      const off = report.rulesOff.length ? h('p', { class: 'muted' }, `Not judged: ${report.rulesOff.join(', ')}`) : '';
      if (report.findings.length === 0) return void fill(list, h('p', { class: 'clean' }, 'No rule broken: the client keeps the service’s rules.'), off);
      const rows = report.findings.map((f) => h('tr', { dataset: { rule: f.rule } },
        h('td', {}, h('strong', {}, f.title), h('div', { class: 'muted' }, h('code', {}, f.rule), ` · ${f.source.section}`)),
        h('td', { class: 'num' }, f.count),
        h('td', {}, f.firstAt, h('br'), f.lastAt),
        h('td', { title: f.threshold }, ...f.examples.slice(0, 1).map((e) => h('div', {}, h('code', {}, `${e.method} ${e.path}`), ` (${e.via}) ${e.problem}`))),
        h('td', {}, f.advice)));
      fill(list, table(['Rule', 'Count', 'First / last', 'Example', 'Advice'], rows, ''), off);
    } catch (error) {
      app.report(error);
    }
  }

  return {
    element,
    refresh,
    /** @param {any[]} accounts */
    accounts(accounts) {
      const chosen = account.value;
      fill(account, h('option', { value: '' }, 'choose an account'), ...accounts.map((a) => h('option', { value: a.accountId, selected: a.accountId === chosen }, `${a.name} (${short(a.accountId)})`)));
    },
  };
}
