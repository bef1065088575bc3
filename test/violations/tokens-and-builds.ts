import { accountOf, editJson, fakeDeliverable, is, jsonOf, withHeaders } from './tamper.js';
import { PATHS, isReplay, errorCode, buildStatus, type Violation } from './violation.js';

/** Violations of idempotency, of the token arithmetic, of the build state machine and of the deliverables. */
export const TOKEN_AND_BUILD_VIOLATIONS: Violation[] = [
  {
    id: 'replay-charges',
    description: 'an idempotent replay charges the build again',
    rule: 'a replay charges no tokens',
    documented: true,
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (isReplay(req, res) && account) {
        account.balance -= 1;
        account.lifetimeUsed += 1;
      }
      return res;
    },
  },
  {
    id: 'balance-moves-on-replay',
    description: 'an idempotent replay takes a token from the balance (lifetimeUsed stays)',
    rule: 'a replay charges no tokens',
    documented: true,
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (isReplay(req, res) && account) account.balance -= 1;
      return res;
    },
  },
  {
    id: 'replay-creates-build',
    description: 'an idempotent replay also creates a second build (refunded, so only the list shows it)',
    rule: 'a replay creates no new build',
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (isReplay(req, res) && account) {
        const { 'idempotency-key': _, ...headers } = req.headers;
        const second = h({ ...req, headers });
        const cost = second.status === 202 ? (account.builds.get(jsonOf(second).buildId)?.cost ?? 0) : 0;
        account.balance += cost;
        account.lifetimeUsed -= cost;
      }
      return res;
    },
  },
  {
    id: 'missing-idempotent-flag',
    description: 'a replay answers without idempotent: true',
    rule: 'returns the existing build with idempotent: true',
    documented: true,
    wrap: (h) => editJson(h, isReplay, (json) => ({ buildId: json.buildId, correlationId: json.correlationId })),
  },
  {
    id: 'status-out-of-order',
    description: 'drafting and critiquing are reported the wrong way round',
    rule: 'in the documented order',
    documented: true,
    wrap: (h, sim) => buildStatus(h, (s) => (s === 'drafting' ? 'critiquing' : s === 'critiquing' ? 'drafting' : s), sim),
  },
  {
    id: 'skipped-status',
    description: 'critiquing is reported as merging',
    rule: 'no status is skipped',
    documented: true,
    wrap: (h, sim) => buildStatus(h, (s) => (s === 'critiquing' ? 'merging' : s), sim),
  },
  {
    id: 'terminal-status-changes',
    description: 'a completed build turns back to merging half an hour later',
    rule: 'completed is terminal',
    documented: true,
    wrap: (h, sim) => buildStatus(h, (s, b, now) => (s === 'completed' && now > Date.parse(b.completedAt) + 30 * 60_000 ? 'merging' : s), sim),
  },
  {
    id: 'failed-not-terminal',
    description: 'a failed build reports completed an hour later',
    rule: 'failed is terminal',
    documented: true,
    wrap: (h, sim) => buildStatus(h, (s, b, now) => (s === 'failed' && now > Date.parse(b.updatedAt) + 30 * 60_000 ? 'completed' : s), sim),
  },
  {
    id: 'unknown-status',
    description: 'pending is reported as queued',
    rule: 'at /build/status must be equal to one of the allowed values',
    documented: true,
    wrap: (h, sim) => buildStatus(h, (s) => (s === 'pending' ? 'queued' : s), sim),
  },
  {
    id: 'deliverables-too-early',
    description: 'a deliverable is listed while the build is merging',
    rule: 'deliverables appear on the build exactly when it completes',
    documented: true,
    wrap: (h) =>
      editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json) => {
        if (json.build.status === 'merging') json.deliverables = [fakeDeliverable(json.build)];
      }),
  },
  {
    id: 'wrong-shortfall',
    description: '402 shortfall is one more than required − available',
    rule: 'shortfall',
    documented: true,
    wrap: (h) => editJson(h, (_, res) => errorCode(res) === 'INSUFFICIENT_TOKENS', (json) => void (json.details.shortfall += 1)),
  },
  {
    id: 'insufficient-without-available',
    description: '402 details lack available',
    rule: 'INSUFFICIENT_TOKENS carries required, available and shortfall',
    documented: true,
    wrap: (h) => editJson(h, (_, res) => errorCode(res) === 'INSUFFICIENT_TOKENS', (json) => void delete json.details.available),
  },
  {
    id: 'lifetime-used-stuck',
    description: 'lifetimeUsed does not move when a build is charged',
    rule: 'lifetimeUsed change of a standard blog build',
    documented: true,
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.balance) && res.status === 200, (json) => ({ ...json, lifetimeUsed: 0 })),
  },
  {
    id: 'charge-not-listed',
    description: 'build charges are missing from the transactions',
    rule: 'one new transaction for one build',
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.transactions) && res.status === 200, (json) => ({ ...json, data: json.data.filter((t: { type: string }) => t.type !== 'build_charge') })),
  },
  {
    id: 'wrong-download-type',
    description: 'the Markdown download is sent as text/plain',
    rule: 'text/markdown',
    documented: true,
    wrap: (h) => (req) => {
      const res = h(req);
      return is(req, 'GET', PATHS.download) && res.status === 200 && req.url.includes('format=md') ? withHeaders(res, (hd) => (hd['content-type'] = 'text/plain; charset=utf-8')) : res;
    },
  },
  {
    id: 'html-download-is-markdown',
    description: 'the HTML download carries the Markdown text',
    rule: "the HTML file is the deliverable's html",
    documented: 'the download is in the chosen format',
    wrap: (h) => (req) => {
      const res = h(req);
      if (!(is(req, 'GET', PATHS.download) && res.status === 200 && req.url.includes('format=html'))) return res;
      const markdown = h({ ...req, url: req.url.replace('format=html', 'format=md') });
      return { ...res, body: markdown.body };
    },
  },
  {
    id: 'deliverable-without-sources',
    description: 'the full deliverable has an empty list of sources',
    rule: 'sources is a non-empty list',
    documented: true,
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.deliverable) && res.status === 200, (json) => ({ ...json, sources: [], claims: [] })),
  },
  {
    id: 'completed-without-deliverables',
    description: 'a completed build lists no deliverable',
    rule: 'no deliverable although completed',
    documented: true,
    wrap: (h) => editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json) => void (json.deliverables = [])),
  },
  {
    id: 'builds-are-free',
    description: 'a build is not charged',
    rule: 'balance change of a standard blog build',
    documented: true,
    wrap: (h, sim) => (req) => {
      const res = h(req);
      const account = accountOf(sim, req);
      if (is(req, 'POST', PATHS.builds) && res.status === 202 && account) {
        const cost = account.builds.get(jsonOf(res).buildId)?.cost ?? 0;
        account.balance += cost;
        account.lifetimeUsed -= cost;
      }
      return res;
    },
  },
];
