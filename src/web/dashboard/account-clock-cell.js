// @ts-check
import { h } from './dom.js';

/**
 * One account's time in the accounts table: the simulator's clock it follows, or a clock of
 * its own that can be advanced, frozen, resumed or dropped (back to the simulator's).
 * @param {import('./api.js').ControlApi} api @param {{ refresh: () => void, report: (e: unknown) => void }} app
 * @param {{ accountId: string, clock?: { now: string, frozen: boolean } }} account
 */
export function accountClockCell(api, app, account) {
  // Encoded: an id is data, and must never reach another path of the control API.
  const path = `/_sim/accounts/${encodeURIComponent(account.accountId)}/clock`;
  const act = (/** @type {string} */ label, /** @type {string} */ cls, /** @type {() => Promise<unknown>} */ fn) =>
    h('button', {
      type: 'button',
      class: `account-clock-${cls}`,
      onclick: async () => {
        try {
          await fn();
          app.refresh();
        } catch (error) {
          app.report(error);
        }
      },
    }, label);
  const { clock } = account;
  if (!clock) return h('td', { class: 'account-clock' }, h('span', { class: 'muted' }, "simulator's "), act('Own clock', 'own', () => api.post(path, { own: true })));
  return h('td', { class: 'account-clock' },
    h('output', {}, clock.now.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC')), ' ',
    h('span', { class: `badge ${clock.frozen ? 'frozen' : 'running'}` }, clock.frozen ? 'frozen' : 'running'), h('br'),
    act('+1 min', 'advance', () => api.post(`${path}/advance`, { seconds: 60 })),
    act('+1 h', 'advance-hour', () => api.post(`${path}/advance`, { seconds: 3600 })),
    clock.frozen ? act('Resume', 'resume', () => api.post(`${path}/resume`)) : act('Freeze', 'freeze', () => api.post(`${path}/freeze`)),
    act('Drop', 'drop', () => api.delete(path)));
}
