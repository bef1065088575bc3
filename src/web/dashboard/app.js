// @ts-check
import { ControlApi, ControlError } from './api.js';
import { h, fill } from './dom.js';
import { clockPanel } from './clock-panel.js';
import { accountsPanel } from './accounts-panel.js';
import { buildsPanel } from './builds-panel.js';
import { journalPanel } from './journal-panel.js';
import { faultsPanel } from './faults-panel.js';
import { scenariosPanel } from './scenarios-panel.js';
// Modules that add a section to an account's view import account-sections.js and are imported here.
import './client-report-panel.js';

/**
 * The dashboard: a client of the control API and nothing else. It polls the state that
 * changes with the clock (builds move through their stages without any request) once a
 * second, and follows the journal live over server-sent events.
 */
const POLL_MS = 1000;
/** The newest accounts the page reads, filtered and paged in the page: the most the control API lists at once. */
const ACCOUNTS_LISTED = 500;

const api = new ControlApi();
const notice = /** @type {HTMLElement} */ (document.getElementById('notice'));
const main = /** @type {HTMLElement} */ (document.getElementById('panels'));

let timer = 0;
let accountsSeen = '';
const app = { refresh: () => void refresh(), report };

const clock = clockPanel(api, app);
const accounts = accountsPanel(api, app);
const builds = buildsPanel();
const journal = journalPanel(api, app);
const faults = faultsPanel(api, app);
const scenarios = scenariosPanel();

/** @param {unknown} error */
function report(error) {
  if (error instanceof ControlError && error.status === 401) return askForToken(error.message);
  if (error instanceof ControlError && error.status === 404 && error.code === 'NOT_FOUND' && /switched off/.test(error.message)) {
    fill(notice, 'The control API is switched off (--no-control): the dashboard has nothing to show. The links above still work.');
    notice.className = 'notice';
    return;
  }
  fill(notice, error instanceof Error ? error.message : String(error));
  notice.className = 'notice error';
}

function askForToken(message) {
  const input = h('input', { id: 'control-token', type: 'password', autocomplete: 'off', placeholder: 'control token' });
  const form = h('form', {
    onsubmit: (event) => {
      event.preventDefault();
      api.setToken(/** @type {HTMLInputElement} */ (input).value);
      fill(notice);
      notice.className = '';
      start();
    },
  }, `${message} `, input, h('button', { type: 'submit' }, 'Use token'));
  fill(notice, form);
  notice.className = 'notice';
}

async function refresh() {
  clearTimeout(timer);
  try {
    const [info, accountList, buildList, faultList, scenarioList] = await Promise.all([
      api.get('/_sim'),
      api.get(`/_sim/accounts?limit=${ACCOUNTS_LISTED}`),
      api.get('/_sim/builds?limit=20'),
      api.get('/_sim/faults'),
      api.get('/_sim/scenarios'),
    ]);
    clock.show(info.clock);
    fill(document.getElementById('version') ?? notice, `${info.version} · seed ${info.seed} · pipeline ${info.pipelineSpeed}`);
    accounts.show(accountList);
    builds.show(buildList, accountList.data, info.clock);
    faults.show(faultList);
    scenarios.show(scenarioList);
    const seen = accountList.data.map((a) => a.accountId).join();
    if (seen !== accountsSeen) {
      accountsSeen = seen;
      journal.accounts(accountList.data);
      faults.accounts(accountList.data);
    }
    if (notice.classList.contains('error')) fill(notice);
    timer = window.setTimeout(refresh, POLL_MS);
  } catch (error) {
    report(error);
    // Keep trying unless the user must act first (a token to give, a control API switched off).
    if (!(error instanceof ControlError && (error.status === 401 || error.status === 404))) timer = window.setTimeout(refresh, POLL_MS * 3);
  }
}

/** The operation ids of the contract, offered in the journal and fault forms. */
async function loadOperations() {
  try {
    const doc = await (await fetch('/openapi.json')).json();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId).filter(Boolean)).sort();
    document.body.append(h('datalist', { id: 'operation-ids' }, ...ids.map((id) => h('option', { value: id }))));
  } catch {
    // Without the list, the fields still take any operation id.
  }
}

function start() {
  void refresh();
  journal.start();
}

// The accounts across the page: a shared simulator has many, each with four keys on one line.
main.append(clock.element, accounts.element, h('div', { class: 'columns' }, faults.element, scenarios.element), builds.element, journal.element);
void loadOperations();
start();
