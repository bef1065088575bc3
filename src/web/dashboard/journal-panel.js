// @ts-check
import { h, sideScrollHint, fill, short, timeOf } from './dom.js';
import { windowedTable } from './windowed-table.js';
import { journalEntry } from './journal-entry.js';

/**
 * Entries the page keeps: ten journals of the default size. The list draws only the rows in
 * view, so this bounds the tab's memory, not its speed.
 */
export const KEPT = 10_000;

const COLUMNS = ['Time', 'Status', 'Method', 'URL', 'Operation', 'Fault', 'Key / account', 'ms'];

/**
 * The request journal, live: what clients sent and got, newest first, filtered by account,
 * operation and status; a row opens to its (redacted) headers and bodies, and the call as curl. The feed starts with a
 * replay of every entry the simulator keeps, then follows new ones as they come.
 * @param {import('./api.js').ControlApi} api @param {{ report: (e: unknown) => void }} app
 */
export function journalPanel(api, app) {
  /** @type {any[]} */
  let entries = [];
  /** @type {any[]} Arrived since the last draw, oldest first. */
  let arrived = [];
  let newest = 0;
  let unseen = 0;
  let drawing = 0;
  let feed = new AbortController();
  const account = h('select', { id: 'journal-account', 'aria-label': 'account' }, h('option', { value: '' }, 'every account'));
  const operation = h('input', { id: 'journal-operation', placeholder: 'operationId', 'aria-label': 'operationId', list: 'operation-ids', size: '18' });
  const status = h('input', { id: 'journal-status', placeholder: 'status', 'aria-label': 'status', type: 'number', min: '100', max: '599', size: '5' });
  const live = h('span', { id: 'journal-live', class: 'badge' }, 'connecting');
  const count = h('span', { id: 'journal-count', class: 'muted' }, '');
  const list = windowedTable({
    id: 'journal-rows',
    // Status second: on a phone the first two columns are what the box shows.
    columns: COLUMNS,
    empty: 'Nothing yet: calls to /api/v1 show here as they happen.',
    key: (e) => e.seq,
    row,
    details: (e) => journalEntry(api, e, COLUMNS.length),
  });
  const toNewest = h('button', {
    id: 'journal-newest',
    type: 'button',
    hidden: true,
    onclick: () => {
      list.toTop();
      unseen = 0;
      toNewest.hidden = true;
    },
  }, 'Newest');
  list.element.addEventListener('scroll', () => {
    if (!list.scrolledAway) {
      unseen = 0;
      toNewest.hidden = true;
    }
  });

  const value = (el) => /** @type {HTMLInputElement} */ (el).value.trim();
  const query = () => {
    const q = new URLSearchParams();
    if (value(account)) q.set('accountId', value(account));
    if (value(operation)) q.set('operationId', value(operation));
    if (value(status)) q.set('status', value(status));
    return q.toString();
  };

  /** Puts what arrived in front, at most once a frame however fast entries come. */
  const draw = () => {
    drawing = 0;
    const added = arrived.reverse();
    arrived = [];
    entries = added.length >= KEPT ? added.slice(0, KEPT) : [...added, ...entries.slice(0, KEPT - added.length)];
    if (list.scrolledAway && added.length > 0) {
      unseen += added.length;
      fill(toNewest, `Newest (${unseen.toLocaleString('en')} more)`);
      toNewest.hidden = false;
    }
    list.show(entries, added.length);
    fill(count, entries.length === 0 ? '' : `${entries.length.toLocaleString('en')} ${entries.length === 1 ? 'entry' : 'entries'}, newest first`);
  };
  const reset = () => {
    entries = [];
    arrived = [];
    unseen = 0;
    toNewest.hidden = true;
    cancelAnimationFrame(drawing);
    drawing = requestAnimationFrame(draw);
  };

  const connect = () => {
    feed.abort();
    feed = new AbortController();
    newest = 0;
    reset();
    list.toTop();
    fill(live, 'live');
    live.className = 'badge running';
    // From 0: the simulator first replays every entry it keeps that matches, oldest first.
    void api.stream(`/_sim/journal/stream?${query()}`, (event) => {
      if (event.event !== 'entry') return;
      const entry = JSON.parse(event.data);
      // A reconnection replays what was missed; seq only grows.
      if (entry.seq <= newest) return;
      newest = entry.seq;
      if (arrived.length >= KEPT) arrived.shift();
      arrived.push(entry);
      if (!drawing) drawing = requestAnimationFrame(draw);
    }, feed.signal, (error) => {
      fill(live, 'reconnecting');
      live.className = 'badge frozen';
      app.report(error);
    }, '0');
  };
  const clear = h('button', {
    id: 'journal-clear',
    type: 'button',
    onclick: async () => {
      try {
        const who = value(account);
        await api.delete(`/_sim/journal${who ? `?${new URLSearchParams({ accountId: who })}` : ''}`);
        reset();
      } catch (error) {
        app.report(error);
      }
    },
  }, 'Clear');
  for (const input of [account, operation, status]) input.addEventListener('change', () => connect());
  const element = h('section', { id: 'journal' },
    h('h2', {}, 'Request journal ', live, ' ', count),
    h('div', { class: 'filters' }, account, operation, status, clear, toNewest),
    list.element);
  // Its right edge shadowed while columns hide past it; no line of text: on a phone the
  // journal's box is to stay within a thumb's reach of the top.
  sideScrollHint(list.element);
  return {
    element,
    start: () => connect(),
    /** @param {any[]} accounts */
    accounts(accounts) {
      const chosen = value(account);
      fill(account, h('option', { value: '' }, 'every account'), ...accounts.map((a) => h('option', { value: a.accountId, selected: a.accountId === chosen }, `${a.name} (${short(a.accountId)})`)));
    },
  };
}

function row(e) {
  return h('tr', { dataset: { seq: e.seq, status: e.status }, class: e.injected ? 'injected' : '' },
    h('td', {}, timeOf(e.at)),
    h('td', { title: e.errorCode ?? '' }, h('span', { class: `badge http-${String(e.status)[0]}xx` }, e.status), e.errorCode ? ` ${e.errorCode}` : ''),
    h('td', {}, e.method),
    h('td', { class: 'url', title: e.url }, e.url),
    h('td', { title: e.operationId ?? '' }, e.operationId ?? ''),
    h('td', {}, e.injected ? h('span', { class: 'badge injected', title: 'made by a fault rule or a Prefer header' }, `injected: ${e.injected}`) : ''),
    h('td', {}, e.keyHint ? h('code', {}, e.keyHint) : '', e.accountId ? h('code', { title: e.accountId }, ` ${short(e.accountId)}`) : ''),
    h('td', { class: 'num' }, e.durationMs),
  );
}
