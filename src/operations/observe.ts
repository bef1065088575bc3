import { toIso } from '../clock/clock.js';
import { ApiError, notFound } from '../errors/api-error.js';
import type { FaultRule, FaultRuleInput } from '../observe/faults.js';
import { entryEvent, entryMatches } from '../observe/journal.js';
import { HAR_MEDIA_TYPE, journalHar } from '../observe/journal-har.js';
import type { ControlHandler } from './context.js';
import { counted } from '../errors/counted.js';

/** The journal, newest first, filtered (GET /_sim/journal); with `format=har`, the same entries as HAR 1.2, oldest first. */
export const getJournal: ControlHandler = ({ sim, params }) => {
  const q = params.query as { accountId?: string; operationId?: string; status?: number; correlationId?: string; since?: string; limit?: number; format?: 'json' | 'har' };
  const query = {
    accountId: q.accountId,
    operationId: q.operationId,
    status: q.status,
    correlationId: q.correlationId,
    since: q.since === undefined ? undefined : Date.parse(q.since),
    limit: q.limit ?? 100,
  };
  if (q.format === 'har') {
    const har = journalHar(sim.journal.exchanges(query), sim.oauth.issuer, sim.version);
    return { status: 200, headers: { 'content-disposition': 'attachment; filename="journal.har"' }, file: { contentType: HAR_MEDIA_TYPE, body: JSON.stringify(har) } };
  }
  return { status: 200, json: { data: sim.journal.query(query), size: sim.journal.size } };
};

/** Heartbeats are the adapter's: the engine keeps no timers. */
const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

/** The journal live (GET /_sim/journal/stream): what was missed since Last-Event-ID, then each new entry. */
export const streamJournal: ControlHandler = ({ sim, params }) => {
  const q = params.query as { accountId?: string; operationId?: string; status?: number };
  const filter = { accountId: q.accountId, operationId: q.operationId, status: q.status };
  if (sim.journal.feedsFull) throw feedsFull(sim.journal.maxFeeds);
  const lastId = (params.header as Record<string, string | undefined>)['Last-Event-ID'];
  const missed = lastId === undefined ? [] : sim.journal.after(Number(lastId), filter);
  return {
    status: 200,
    headers: { 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
    file: { contentType: EVENT_STREAM_TYPE, body: `retry: 2000\n: journal of ${counted(sim.journal.size, 'entry')}\n\n${missed.map(entryEvent).join('')}` },
    stream: {
      open: (send, end) => sim.journal.subscribe((entry) => entryMatches(entry, filter) && send(entryEvent(entry)), end),
    },
  };
};

/** Every live feed is taken: 503 with Retry-After, like a server that has no room for one more. */
function feedsFull(limit: number): ApiError {
  const retryAfterSeconds = 5;
  return new ApiError(
    503,
    'SERVICE_UNAVAILABLE',
    `${limit} live journal feeds are open, the most the simulator serves at once: close one, or read the journal with GET /_sim/journal.`,
    { limit, retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

export const clearJournal: ControlHandler = ({ sim, params }) => {
  sim.journal.clear((params.query as { accountId?: string }).accountId);
  return { status: 204 };
};

type FaultBody = Omit<FaultRuleInput, 'untilMs'> & { until?: string };

export const createFault: ControlHandler = ({ sim, body, now }) => {
  const { until, ...rest } = body as FaultBody;
  const rule = sim.faults.add({ ...rest, ...(until ? { untilMs: Date.parse(until) } : {}) }, now);
  return { status: 201, json: faultJson(rule) };
};

export const listFaults: ControlHandler = ({ sim, params, now }) => ({
  status: 200,
  json: { data: sim.faults.list((params.query as { accountId?: string }).accountId, now).map(faultJson) },
});

export const deleteFault: ControlHandler = ({ sim, params }) => {
  const id = params.path.faultId as string;
  if (!sim.faults.remove(id)) throw notFound('fault rule', id);
  return { status: 204 };
};

export const clearFaults: ControlHandler = ({ sim, params }) => {
  sim.faults.clear((params.query as { accountId?: string }).accountId);
  return { status: 204 };
};

function faultJson(rule: FaultRule) {
  const { untilMs, createdAt, ...rest } = rule;
  return { ...rest, createdAt: toIso(createdAt), until: untilMs === undefined ? null : toIso(untilMs) };
}
