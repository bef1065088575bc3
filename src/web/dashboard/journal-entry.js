// @ts-check
import { h, fill } from './dom.js';

/**
 * A journal entry opened: the call's headers and bodies as the journal keeps them (secrets
 * redacted: a key to its hint), read from the control API's HAR export of that one call, and
 * the call again as a curl command. The curl never holds a secret: the key is `$KEY`, named by
 * its hint, for the reader to set; a redacted header value stays redacted.
 * @param {import('./api.js').ControlApi} api @param {any} e the entry
 * @param {number} columns the table's, for the cell's colspan
 */
export function journalEntry(api, e, columns) {
  const cell = h('td', { colspan: String(columns) },
    h('div', {}, h('strong', {}, 'Correlation id '), h('code', {}, e.correlationId)),
    h('div', { class: 'exchange' }, part('Request', `${e.method} ${e.url}`, undefined, e.requestBody, '(none)'), part('Response', String(e.status), undefined, e.responseBody, '(not JSON, or none)')));
  const query = new URLSearchParams({ correlationId: e.correlationId, format: 'har', limit: '50' });
  api.get(`/_sim/journal?${query}`).then((har) => {
    const found = har.log.entries.filter((x) => x.request.method === e.method && x.startedDateTime === e.at);
    const exchange = found[found.length - 1] ?? har.log.entries[0];
    if (!exchange) return;
    const curl = curlOf(exchange);
    const shown = h('pre', { class: 'curl' }, curl);
    const copy = h('button', {
      type: 'button',
      class: 'copy-curl',
      onclick: async (/** @type {Event} */ event) => {
        event.stopPropagation();
        try {
          await navigator.clipboard.writeText(curl);
          fill(copy, 'Copied');
        } catch {
          // No clipboard (a page not on localhost or HTTPS): the command is selected to copy by hand.
          getSelection()?.selectAllChildren(shown);
          fill(copy, 'Selected: copy it');
        }
      },
    }, 'Copy as curl');
    fill(cell,
      h('div', {}, h('strong', {}, 'Correlation id '), h('code', {}, e.correlationId), ' ', copy),
      h('div', { class: 'exchange' },
        part('Request', `${e.method} ${e.url}`, exchange.request.headers, exchange.request.postData?.text ?? null, '(none)'),
        part('Response', `${exchange.response.status}`, exchange.response.headers, exchange.response.content.text ?? null, exchange.response.content.comment ?? '(none)')),
      shown);
  }, () => {
    // Without the export (an older simulator, a call gone from the journal), the bodies shown stay.
  });
  // A click inside the details selects text, it does not close the row.
  cell.addEventListener('click', (event) => event.stopPropagation());
  return h('tr', { class: 'details' }, cell);
}

/**
 * @param {string} title @param {string} line @param {{ name: string, value: string }[] | undefined} headers
 * @param {string | null} body @param {string} none
 */
function part(title, line, headers, body, none) {
  return h('div', { class: 'exchange-part' },
    h('h4', {}, title, ' ', h('code', {}, line)),
    headers ? h('table', { class: 'headers' }, h('tbody', {}, ...headers.map((x) => h('tr', {}, h('th', {}, x.name), h('td', {}, h('code', {}, x.value)))))) : '',
    h('pre', {}, body === null ? none : pretty(body)));
}

/** JSON laid out to read; anything else (a cut body) as it is. @param {string} text */
function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A shell word: single-quoted, a quote inside closed and reopened. @param {string} text */
const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The call as curl: its method, URL, the headers kept (the credential as `$KEY`), its body.
 * @param {any} exchange a HAR entry
 */
export function curlOf(exchange) {
  const { request } = exchange;
  // This page's origin: the address its reader reaches the simulator at, whatever public URL it was given.
  const url = new URL(request.url);
  const args = [`curl -X ${request.method} ${quote(`${location.origin}${url.pathname}${url.search}`)}`];
  let credential = '';
  for (const { name, value } of request.headers) {
    if (name === 'authorization') {
      const space = value.indexOf(' ');
      credential = space < 0 ? value : value.slice(space + 1);
      args.push(`-H "Authorization: ${space < 0 ? 'Bearer' : value.slice(0, space)} $KEY"`);
    } else args.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (request.postData?.text !== undefined) args.push(`--data-raw ${quote(request.postData.text)}`);
  const command = args.join(' \\\n  ');
  return credential ? `# KEY: the credential ${credential} (the journal keeps its last four characters): KEY=… first\n${command}` : command;
}
