import { settleRefunds } from '../builds/builds-service.js';
import type { EngineHooks, MountedApp } from '../engine/engine-hooks.js';
import { capacityExceeded, growsState } from '../limits/capacity.js';
import { controlRefusedWhenFull, oauthCapacityReply, oauthRefusedWhenFull } from '../limits/capacity-guard.js';
import { AuthorizationServer } from '../oauth/authorization-server.js';
import { preferredFault } from '../observe/faults.js';
import { recordExchange } from '../observe/record-exchange.js';
import { clientReportOf } from '../client-report/client-report.js';
import type { SimulatorState } from '../state/simulator-state.js';

/**
 * What the engine runs on each call, wired to this simulator's services: the builds'
 * catch-up, the fault rules, the journal and the client report, the OAuth server mounted at its paths, and the
 * memory budget's refusals.
 */
export function engineHooks(sim: SimulatorState): EngineHooks {
  const clientReport = clientReportOf(sim);
  const oauth: MountedApp = {
    name: 'oauth',
    handles: (path) => AuthorizationServer.handles(path),
    handle: (method, path, query, request, now) =>
      oauthRefusedWhenFull(sim.capacity, method, path) ? oauthCapacityReply(sim.capacity) : sim.oauth.handle(method, path, query, request, now),
  };
  return {
    catchUp(account, now) {
      settleRefunds(account, now);
      account.buildIndex.advance(now);
      // The sweep visits the other accounts: it goes by the simulator's time, and each account's own.
      sim.store.sweep(account.clock === null ? now : sim.clock.now(), account);
    },
    faultFor: (call) => preferredFault(call.prefer, call.operation, call.now) ?? sim.faults.match(call),
    record: (request, response, facts, durationMs) => {
      recordExchange(sim.journal, request, response, facts, durationMs);
      clientReport.observe(request, response, facts);
    },
    mounts: [oauth],
    refuseWhenFull: {
      serviceCall: (method) => (sim.capacity.exceeded && growsState(method) ? capacityExceeded(sim.capacity) : undefined),
      controlCall: (operationId) => (controlRefusedWhenFull(sim.capacity, operationId) ? capacityExceeded(sim.capacity) : undefined),
    },
  };
}
