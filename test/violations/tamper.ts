import type { HandledResponse } from '../../src/engine/engine.js';
import type { EngineRequest } from '../../src/engine/types.js';
import type { Simulator } from '../../src/simulator.js';
import type { Account } from '../../src/store/account.js';

/** Tools to break a simulator on purpose, one small switch at a time. */
export type Handle = (request: EngineRequest) => HandledResponse;

export function pathOf(request: EngineRequest): string {
  return request.url.split('?')[0] as string;
}

export function is(request: EngineRequest, method: string, path: RegExp): boolean {
  return request.method.toUpperCase() === method && path.test(pathOf(request));
}

export function jsonOf(response: HandledResponse): any {
  return JSON.parse(String(response.body));
}

export function withJson(response: HandledResponse, json: unknown, status = response.status): HandledResponse {
  return { ...response, status, body: JSON.stringify(json) };
}

export function withHeaders(response: HandledResponse, change: (headers: Record<string, string>) => void): HandledResponse {
  const headers = { ...response.headers };
  change(headers);
  return { ...response, headers };
}

/** Changes the JSON body of the responses that match. */
export function editJson(handle: Handle, when: (req: EngineRequest, res: HandledResponse) => boolean, edit: (json: any, req: EngineRequest) => unknown): Handle {
  return (request) => {
    const response = handle(request);
    if (!when(request, response)) return response;
    const json = jsonOf(response);
    const edited = edit(json, request);
    return withJson(response, edited === undefined ? json : edited);
  };
}

export function presentedKey(request: EngineRequest): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** The account whose key the request presents. */
export function accountOf(sim: Simulator, request: EngineRequest): Account | undefined {
  const key = presentedKey(request);
  const record = key ? sim.internal.store.findKey(key) : undefined;
  return record ? sim.internal.store.account(record.accountId) : undefined;
}

/** Keys of the accounts created through `POST /_sim/accounts`, by role, as the suite received them. */
export function recordAccounts(handle: Handle, accounts: Array<Record<string, string>>): Handle {
  return (request) => {
    const response = handle(request);
    if (is(request, 'POST', /^\/_sim\/accounts$/) && response.status === 201) accounts.push(jsonOf(response).keys);
    return response;
  };
}

/** A fake deliverable summary, valid by the schema, for a build that has none. */
export function fakeDeliverable(build: { id: string; kind: string; createdAt: string }) {
  return { id: '00000000-0000-4000-8000-000000000001', buildId: build.id, kind: build.kind, pageIndex: 0, title: 'Too early', wordCount: 1, createdAt: build.createdAt };
}
