import { describe, expect, it } from 'vitest';
import { apiKeyVerifier } from '../../auth/authenticate.js';
import type { Principal } from '../../auth/principal.js';
import { serviceDocument } from '../../contract/openapi.generated.js';
import { readOperations } from '../../contract/operations.js';
import { createSimulator } from '../../simulator.js';
import { callTool, type EngineCall } from '../tool-call.js';
import { buildToolCatalog } from '../tool-catalog.js';
import { createTaskService } from './task-service.js';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');

describe('the tasks an account holds', () => {
  it('are bounded: ended tasks make room, tasks still following builds do not', () => {
    const simulator = createSimulator({ frozenAt: T0, speed: 600, onFault: () => {} });
    const tools = buildToolCatalog(serviceDocument, readOperations(serviceDocument, 'service'));
    const engine: EngineCall = (request, options) => simulator.handle(request, options);
    const service = createTaskService(simulator, tools, engine, 2);
    expect([...service.taskTools]).toEqual(['createBuild']);
    const principal = apiKeyVerifier(simulator.internal.store)(simulator.keys.readWrite, T0) as Principal;
    const target = callTool(tools.get('createTarget')!, { name: 'T', slug: 't', description: 'd', brandKit: { voice: 'v', tone: 't' } }, principal, engine);
    const build = () => callTool(tools.get('createBuild')!, { targetId: target.structuredContent!.id, buildType: 'single', kind: 'blog', objective: 'o', researchPolicy: 'none' }, principal, engine);

    for (let i = 0; i < 2; i++) {
      expect(service.makeRoom(principal)).toBe(true);
      expect(service.start('createBuild', principal, build(), undefined, false)?.status).toBe('working');
    }
    expect(service.makeRoom(principal)).toBe(false);
    expect(service.list(principal, 50, undefined).data).toHaveLength(2);

    simulator.clock.advance(60_000); // both builds end (within their lifetime): the oldest task gives way
    expect(service.makeRoom(principal)).toBe(true);
    expect(service.list(principal, 50, undefined).data).toHaveLength(1);
    expect(service.state(service.list(principal, 50, undefined).data[0]!, principal).status).toBe('completed');

    // A refused call makes no task to keep (2026-07-28), and a task that ended at once on 2025-11-25.
    const refused = callTool(tools.get('createBuild')!, { targetId: target.structuredContent!.id }, principal, engine);
    expect(service.start('createBuild', principal, refused, undefined, false)).toBeUndefined();
    expect(service.start('createBuild', principal, refused, undefined, true)).toMatchObject({ status: 'failed', outcome: { isError: true } });
    expect(service.list(principal, 50, undefined).data).toHaveLength(1);
  });

  it('live at least as long as their build, on the account’s clock', () => {
    const simulator = createSimulator({ frozenAt: T0, speed: 'realistic', onFault: () => {} });
    const tools = buildToolCatalog(serviceDocument, readOperations(serviceDocument, 'service'));
    const engine: EngineCall = (request, options) => simulator.handle(request, options);
    const service = createTaskService(simulator, tools, engine);
    const principal = apiKeyVerifier(simulator.internal.store)(simulator.keys.readWrite, T0) as Principal;
    const target = callTool(tools.get('createTarget')!, { name: 'T', slug: 't', description: 'd', brandKit: { voice: 'v', tone: 't' } }, principal, engine);
    const answer = callTool(tools.get('createBuild')!, { targetId: target.structuredContent!.id, buildType: 'suite', pages: 20, kind: 'blog', objective: 'o', researchPolicy: 'required', researchMode: 'deep' }, principal, engine);
    const state = service.start('createBuild', principal, answer, 1000, true)!;
    // A 1 s lifetime asked for a build of more than an hour: the task outlives the build by ten minutes.
    expect(state.record.ttlMs).toBeGreaterThan(3_600_000);
    simulator.clock.advance(state.record.ttlMs - 1);
    expect(service.find(principal, state.record.id)).toBeDefined();
    simulator.clock.advance(1);
    expect(service.find(principal, state.record.id)).toBeUndefined();
  });
});
