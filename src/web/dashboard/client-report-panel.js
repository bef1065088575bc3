// @ts-check
import { h, fill, table } from './dom.js';
import { accountSection } from './account-sections.js';

/** How often an open account's report is read again. */
const EVERY_MS = 2_000;

/**
 * An account's client report in its view: the service's rules for clients its client broke,
 * each with its count, first and last time, first example and advice
 * (GET /_sim/accounts/{id}/client-report), read again while the view stays open.
 * @param {any} report
 */
function drawReport(report) {
  const off = report.rulesOff.length ? h('p', { class: 'muted' }, `Not judged: ${report.rulesOff.join(', ')}`) : '';
  if (report.findings.length === 0) return h('div', {}, h('p', { class: 'clean' }, 'No rule broken: the client keeps the service’s rules.'), off);
  const rows = report.findings.map((/** @type {any} */ f) => h('tr', { dataset: { rule: f.rule } },
    h('td', {}, h('strong', {}, f.title), h('div', { class: 'muted' }, h('code', {}, f.rule), ` · ${f.source.section}`)),
    h('td', { class: 'num' }, f.count),
    h('td', {}, f.firstAt, h('br'), f.lastAt),
    h('td', { title: f.threshold }, ...f.examples.slice(0, 1).map((/** @type {any} */ e) => h('div', {}, h('code', {}, `${e.method} ${e.path}`), ` (${e.via}) ${e.problem}`))),
    h('td', {}, f.advice)));
  return h('div', {}, table(['Rule', 'Count', 'First / last', 'Example', 'Advice'], rows, ''), off);
}

accountSection({
  id: 'client-report',
  title: 'Client report',
  render(account, api) {
    const holder = h('div', { class: 'client-report' });
    let shown = '';
    const refresh = async () => {
      const report = await api.get(`/_sim/accounts/${encodeURIComponent(account.accountId)}/client-report`);
      const seen = JSON.stringify(report);
      if (seen !== shown) fill(holder, drawReport(report));
      shown = seen;
    };
    // Once the view is closed (the holder taken out of the page), the reading stops.
    const timer = window.setInterval(() => {
      if (!holder.isConnected) return void window.clearInterval(timer);
      refresh().catch(() => {});
    }, EVERY_MS);
    return refresh().then(() => holder);
  },
});
