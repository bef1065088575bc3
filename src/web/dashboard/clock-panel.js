// @ts-check
import { h, fill } from './dom.js';

/**
 * The virtual clock (advance, freeze, resume) and the whole-simulator reset.
 * @param {import('./api.js').ControlApi} api @param {{ refresh: () => void, report: (e: unknown) => void }} app
 */
export function clockPanel(api, app) {
  const now = h('output', { id: 'clock-now' }, '…');
  const state = h('span', { id: 'clock-state', class: 'badge' }, '');
  const seconds = h('input', { id: 'advance-seconds', type: 'number', min: '1', value: '60', 'aria-label': 'seconds to advance' });
  const act = (fn) => async () => {
    try {
      await fn();
      app.refresh();
    } catch (error) {
      app.report(error);
    }
  };
  const freeze = h('button', { id: 'clock-freeze', type: 'button', onclick: act(() => api.post('/_sim/clock/freeze')) }, 'Freeze');
  const resume = h('button', { id: 'clock-resume', type: 'button', onclick: act(() => api.post('/_sim/clock/resume')) }, 'Resume');
  const advance = h('button', {
    id: 'clock-advance',
    type: 'button',
    onclick: act(() => api.post('/_sim/clock/advance', { seconds: Number(/** @type {HTMLInputElement} */ (seconds).value) || 0 })),
  }, 'Advance');
  const reset = h('button', {
    id: 'reset-all',
    type: 'button',
    class: 'danger',
    onclick: act(async () => {
      if (confirm('Put the whole simulator back to its seeded start? Every account made since is gone.')) await api.post('/_sim/reset');
    }),
  }, 'Reset simulator');
  const element = h('section', { id: 'clock', 'aria-label': 'clock' },
    h('span', { class: 'label' }, 'Virtual clock'), now, state, freeze, resume, seconds, h('span', {}, 's'), advance, reset);
  return {
    element,
    /** @param {{ now: string, frozen: boolean }} clock */
    show(clock) {
      fill(now, clock.now.replace('T', ' ').replace('Z', ' UTC'));
      fill(state, clock.frozen ? 'frozen' : 'running');
      state.className = `badge ${clock.frozen ? 'frozen' : 'running'}`;
      freeze.toggleAttribute('disabled', clock.frozen);
      resume.toggleAttribute('disabled', !clock.frozen);
    },
  };
}
