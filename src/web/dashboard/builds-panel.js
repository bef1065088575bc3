// @ts-check
import { h, fillTable, short, timeOf } from './dom.js';

/**
 * The newest builds of every account, where each stands in its pipeline now, newest first on
 * the simulator's clock (the server orders them so). A build's time is on its account's clock:
 * where that clock is not the simulator's, the time says by how much it differs.
 */
export function buildsPanel() {
  const body = h('div', {});
  let shown = '';
  const element = h('section', { id: 'builds' }, h('h2', {}, 'Builds'), body);
  return {
    element,
    /** @param {{ data: any[] }} builds @param {any[]} accounts @param {{ nowMs: number }} clock the simulator's */
    show(builds, accounts, clock) {
      const byId = new Map(accounts.map((a) => [a.accountId, a]));
      // The offset of each account's clock, to the minute: the page polls every second.
      const ahead = (/** @type {any} */ account) => (account?.clock ? Math.round((account.clock.nowMs - clock.nowMs) / 60_000) : 0);
      const rows = builds.data.map((b) => ({ b, account: byId.get(b.accountId), minutes: ahead(byId.get(b.accountId)) }));
      // Redrawn only when something changed (see accounts-panel.js).
      const seen = JSON.stringify(rows.map(({ b, account, minutes }) => [b, account?.name, minutes]));
      if (seen === shown) return;
      shown = seen;
      fillTable(body, ['Build', 'Status', 'Account', 'Kind', 'Objective', 'Stage', 'Progress', 'Created'], rows.map(({ b, account, minutes }) => h('tr', { dataset: { buildId: b.id, status: b.status } },
        h('td', {}, h('code', { title: b.id }, short(b.id))),
        h('td', {}, h('span', { class: `badge status-${b.status}` }, b.status)),
        h('td', { class: 'account-name', title: b.accountId }, account?.name ?? short(b.accountId)),
        h('td', {}, `${b.kind}${b.buildType === 'suite' ? ' suite' : ''}`),
        h('td', { class: 'objective', title: b.objective }, b.objective),
        h('td', {}, b.stage ?? ''),
        h('td', {}, h('progress', { max: '100', value: String(b.progress) }), ` ${b.progress}%`),
        createdCell(b.createdAt, account, minutes, new Date(clock.nowMs).toISOString().slice(0, 10)),
      )), 'No build yet: create one with POST /api/v1/builds.');
    },
  };
}

/** The time a build was made, on its account's clock; an own clock says so, and its offset (its date too, when not the simulator's day). */
function createdCell(iso, account, minutes, today) {
  if (!account?.clock) return h('td', { class: 'created' }, timeOf(iso));
  const off = minutes === 0 ? 'same time' : `${minutes > 0 ? '+' : '−'}${offsetText(Math.abs(minutes))}`;
  return h('td', { class: 'created', title: `${iso} on ${account.name}'s own clock (${off} against the simulator's)` },
    iso.slice(0, 10) === today ? timeOf(iso) : `${iso.slice(0, 10)} ${timeOf(iso)}`,
    ' ', h('span', { class: 'badge own-clock' }, `own clock ${off}`));
}

/** @param {number} minutes */
function offsetText(minutes) {
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}
