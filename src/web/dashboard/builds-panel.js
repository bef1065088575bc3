// @ts-check
import { h, fillTable, short, timeOf } from './dom.js';

/** The newest builds of every account, where each stands in its pipeline now. */
export function buildsPanel() {
  const body = h('div', {});
  let shown = '';
  const element = h('section', { id: 'builds' }, h('h2', {}, 'Builds'), body);
  return {
    element,
    /** @param {{ data: any[] }} builds */
    show(builds) {
      // Redrawn only when something changed (see accounts-panel.js).
      const seen = JSON.stringify(builds);
      if (seen === shown) return;
      shown = seen;
      const rows = builds.data.map((b) => h('tr', { dataset: { buildId: b.id, status: b.status } },
        h('td', {}, h('code', { title: b.id }, short(b.id))),
        h('td', {}, h('code', { title: b.accountId }, short(b.accountId))),
        h('td', {}, `${b.kind}${b.buildType === 'suite' ? ' suite' : ''}`),
        h('td', { class: 'objective', title: b.objective }, b.objective),
        h('td', {}, h('span', { class: `badge status-${b.status}` }, b.status)),
        h('td', {}, b.stage ?? ''),
        h('td', {}, h('progress', { max: '100', value: String(b.progress) }), ` ${b.progress}%`),
        h('td', {}, timeOf(b.createdAt)),
      ));
      fillTable(body, ['Build', 'Account', 'Kind', 'Objective', 'Status', 'Stage', 'Progress', 'Created'], rows, 'No build yet: create one with POST /api/v1/builds.');
    },
  };
}
