// @ts-check
import { h, fill, short, table } from './dom.js';

const STATUSES = ['', '400', '401', '402', '403', '404', '409', '413', '415', '429', '500', '503'];

/**
 * Fault rules: the live ones, each removable, and a form that adds one (a documented error,
 * a delay, a slow body or a dropped connection, for the next N calls).
 * @param {import('./api.js').ControlApi} api @param {{ refresh: () => void, report: (e: unknown) => void }} app
 */
export function faultsPanel(api, app) {
  const list = h('div', {});
  const field = (id, label, control) => h('label', { for: id }, label, control);
  const operation = h('input', { id: 'fault-operation', list: 'operation-ids', placeholder: 'any operation', size: '18' });
  const account = h('select', { id: 'fault-account' }, h('option', { value: '' }, 'every account'));
  const status = h('select', { id: 'fault-status' }, ...STATUSES.map((s) => h('option', { value: s }, s || 'no error')));
  const retryAfter = h('input', { id: 'fault-retry-after', type: 'number', min: '0', max: '3600', placeholder: '1', size: '4' });
  const latency = h('input', { id: 'fault-latency', type: 'number', min: '0', max: '60000', placeholder: '0', size: '6' });
  const slow = h('input', { id: 'fault-slow-body', type: 'number', min: '1', max: '60000', placeholder: 'off', size: '6' });
  const drop = h('input', { id: 'fault-drop', type: 'checkbox' });
  const times = h('input', { id: 'fault-times', type: 'number', min: '1', placeholder: 'every call', size: '6' });
  const value = (el) => /** @type {HTMLInputElement} */ (el).value.trim();
  const form = h('form', {
    id: 'fault-form',
    onsubmit: async (event) => {
      event.preventDefault();
      /** @type {Record<string, unknown>} */
      const rule = {};
      if (value(operation)) rule.operationId = value(operation);
      if (value(account)) rule.accountId = value(account);
      if (value(status)) rule.response = { status: Number(value(status)), ...(value(retryAfter) ? { retryAfterSeconds: Number(value(retryAfter)) } : {}) };
      if (value(latency)) rule.latencyMs = Number(value(latency));
      if (value(slow)) rule.slowBody = { totalMs: Number(value(slow)) };
      if (/** @type {HTMLInputElement} */ (drop).checked) rule.drop = true;
      if (value(times)) rule.times = Number(value(times));
      try {
        await api.post('/_sim/faults', rule);
        app.refresh();
      } catch (error) {
        app.report(error);
      }
    },
  },
  field('fault-operation', 'Operation ', operation),
  field('fault-account', 'Account ', account),
  field('fault-status', 'Answer ', status),
  field('fault-retry-after', 'Retry-After (s) ', retryAfter),
  field('fault-latency', 'Delay (ms) ', latency),
  field('fault-slow-body', 'Slow body over (ms) ', slow),
  field('fault-drop', 'Drop connection ', drop),
  field('fault-times', 'For the next ', times),
  h('button', { id: 'fault-add', type: 'submit' }, 'Add rule'));
  const element = h('section', { id: 'faults' }, h('h2', {}, 'Fault rules'), form, list);
  const describe = (r) => [
    r.response ? `answer ${r.response.status}${r.response.code ? ` ${r.response.code}` : ''}` : '',
    r.latencyMs !== undefined ? `delay ${typeof r.latencyMs === 'number' ? r.latencyMs : `${r.latencyMs.min}–${r.latencyMs.max}`} ms` : '',
    r.slowBody ? `slow body over ${r.slowBody.totalMs} ms` : '',
    r.drop ? 'drop the connection' : '',
  ].filter(Boolean).join(', ');
  return {
    element,
    /** @param {{ data: any[] }} faults */
    show(faults) {
      const rows = faults.data.map((r) => h('tr', { dataset: { faultId: r.id } },
        h('td', {}, h('code', {}, r.id)),
        h('td', {}, r.operationId ?? 'any', r.method ? ` ${r.method}` : '', r.path ? ` ${r.path}` : ''),
        h('td', {}, r.accountId ? h('code', { title: r.accountId }, short(r.accountId)) : 'every'),
        h('td', {}, describe(r)),
        h('td', { class: 'num' }, r.times === undefined ? `${r.hits} hits` : `${r.hits} of ${r.times}`),
        h('td', {}, h('button', {
          type: 'button',
          class: 'fault-remove',
          onclick: async () => {
            try {
              await api.delete(`/_sim/faults/${encodeURIComponent(r.id)}`);
              app.refresh();
            } catch (error) {
              app.report(error);
            }
          },
        }, 'Remove'))));
      fill(list, table(['Rule', 'Matches', 'Account', 'Does', 'Hits', ''], rows, 'No rule: every call is answered as the contract says.'));
    },
    /** @param {any[]} accounts */
    accounts(accounts) {
      const chosen = value(account);
      fill(account, h('option', { value: '' }, 'every account'), ...accounts.map((a) => h('option', { value: a.accountId, selected: a.accountId === chosen }, `${a.name} (${short(a.accountId)})`)));
    },
  };
}
