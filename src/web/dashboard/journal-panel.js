// @ts-check
import { h, fill, short, table, timeOf } from './dom.js';

const SHOWN = 200;

/**
 * The request journal, live: what clients sent and got, newest first, filtered by account,
 * operation and status; a row opens to show the (redacted) bodies.
 * @param {import('./api.js').ControlApi} api @param {{ report: (e: unknown) => void }} app
 */
export function journalPanel(api, app) {
  /** @type {any[]} */
  let entries = [];
  let feed = new AbortController();
  const account = h('select', { id: 'journal-account', 'aria-label': 'account' }, h('option', { value: '' }, 'every account'));
  const operation = h('input', { id: 'journal-operation', placeholder: 'operationId', list: 'operation-ids', size: '18' });
  const status = h('input', { id: 'journal-status', placeholder: 'status', type: 'number', min: '100', max: '599', size: '5' });
  const live = h('span', { id: 'journal-live', class: 'badge' }, 'connecting');
  const body = h('div', {});
  const value = (el) => /** @type {HTMLInputElement} */ (el).value.trim();
  const query = () => {
    const q = new URLSearchParams();
    if (value(account)) q.set('accountId', value(account));
    if (value(operation)) q.set('operationId', value(operation));
    if (value(status)) q.set('status', value(status));
    return q.toString();
  };
  const render = () => {
    const rows = entries.map((e) => {
      const row = h('tr', { dataset: { seq: e.seq, status: e.status }, class: e.injected ? 'injected' : '' },
        h('td', {}, timeOf(e.at)),
        h('td', {}, e.method),
        h('td', { class: 'url', title: e.url }, e.url),
        h('td', {}, e.operationId ?? ''),
        h('td', {}, h('span', { class: `badge http-${String(e.status)[0]}xx` }, e.status), e.errorCode ? ` ${e.errorCode}` : ''),
        h('td', {}, e.injected ? h('span', { class: 'badge injected', title: 'made by a fault rule or a Prefer header' }, `injected: ${e.injected}`) : ''),
        h('td', {}, e.keyHint ? h('code', {}, e.keyHint) : '', e.accountId ? h('code', { title: e.accountId }, ` ${short(e.accountId)}`) : ''),
        h('td', { class: 'num' }, e.durationMs),
      );
      row.addEventListener('click', () => {
        const next = row.nextElementSibling;
        if (next?.classList.contains('details')) next.remove();
        else row.after(details(e));
      });
      return row;
    });
    fill(body, table(['Time', 'Method', 'URL', 'Operation', 'Status', 'Fault', 'Key / account', 'ms'], rows, 'Nothing yet: calls to /api/v1 show here as they happen.'));
  };
  const connect = async () => {
    feed.abort();
    feed = new AbortController();
    try {
      entries = (await api.get(`/_sim/journal?limit=${SHOWN}&${query()}`)).data;
      render();
    } catch (error) {
      app.report(error);
    }
    const signal = feed.signal;
    fill(live, 'live');
    live.className = 'badge running';
    void api.stream(`/_sim/journal/stream?${query()}`, (event) => {
      if (event.event !== 'entry') return;
      const entry = JSON.parse(event.data);
      if (entries.some((e) => e.seq === entry.seq)) return;
      entries = [entry, ...entries].slice(0, SHOWN);
      render();
    }, signal, (error) => {
      fill(live, 'reconnecting');
      live.className = 'badge frozen';
      app.report(error);
    });
  };
  const clear = h('button', {
    id: 'journal-clear',
    type: 'button',
    onclick: async () => {
      try {
        await api.delete(`/_sim/journal${value(account) ? `?${new URLSearchParams({ accountId: value(account) })}` : ''}`);
        entries = [];
        render();
      } catch (error) {
        app.report(error);
      }
    },
  }, 'Clear');
  for (const input of [account, operation, status]) input.addEventListener('change', () => void connect());
  const element = h('section', { id: 'journal' }, h('h2', {}, 'Request journal ', live), h('div', { class: 'filters' }, account, operation, status, clear), body);
  return {
    element,
    start: () => void connect(),
    /** @param {any[]} accounts */
    accounts(accounts) {
      const chosen = value(account);
      fill(account, h('option', { value: '' }, 'every account'), ...accounts.map((a) => h('option', { value: a.accountId, selected: a.accountId === chosen }, `${a.name} (${short(a.accountId)})`)));
    },
  };
}

function details(e) {
  return h('tr', { class: 'details' }, h('td', { colspan: '8' },
    h('div', {}, h('strong', {}, 'Correlation id '), h('code', {}, e.correlationId)),
    h('div', {}, h('strong', {}, 'Request body'), h('pre', {}, e.requestBody ?? '(none)')),
    h('div', {}, h('strong', {}, 'Response body'), h('pre', {}, e.responseBody ?? '(not JSON, or none)'))));
}
