import { YAML_TYPES } from '../contract/operations.js';
import type { HandledResponse } from '../engine/handled.js';
import type { EngineRequest } from '../engine/types.js';
import { ApiError } from '../errors/api-error.js';
import type { ScenarioSource } from '../scenarios/source.js';
import type { Simulator } from '../simulator.js';

/** `POST /_sim/scenarios` with a YAML body (`application/yaml`, `text/yaml`): a scenario as its file is written. */
export function isYamlScenario(request: EngineRequest): boolean {
  if (request.method !== 'POST') return false;
  const query = request.url.indexOf('?');
  if ((query === -1 ? request.url : request.url.slice(0, query)) !== '/_sim/scenarios') return false;
  return YAML_TYPES.includes((request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '');
}

/**
 * Loads the YAML parser (only now: a simulator that is never sent YAML never loads it), hands
 * the engine a reader for the body, which it reads once the control guard has let the call
 * through, and answers a refusal with the line and column of each field at fault.
 */
export async function handleYamlScenario(simulator: Simulator, request: EngineRequest): Promise<HandledResponse> {
  const { readScenarioText } = await import('../scenarios/source.js');
  let source: ScenarioSource | undefined;
  const readYaml = (text: string) => {
    try {
      source = readScenarioText(text, 'body');
    } catch (error) {
      const syntax = /^body:(\d+):(\d+): (.*)$/s.exec((error as Error).message);
      if (!syntax) throw error;
      const message = `is not valid YAML: ${syntax[3]}`;
      throw new ApiError(400, 'VALIDATION_ERROR', `The request body ${message} (line ${syntax[1]}, column ${syntax[2]}).`, { fields: [{ path: 'body', message, line: Number(syntax[1]), column: Number(syntax[2]) }] });
    }
    return source.value;
  };
  const first = simulator.handle(request, { readYaml });
  // A scenario is loaded in slices: its refusal is the answer that comes later.
  const response = first.later ? await first.later : first;
  if (response.status !== 400 || !source || typeof response.body !== 'string') return response;
  const json = JSON.parse(response.body) as { details?: { fields?: Array<{ path: string }> } };
  for (const field of json.details?.fields ?? []) {
    const at = source.position(field.path.replace(/^body\.?/, ''));
    if (at) Object.assign(field, at);
  }
  return { ...response, body: JSON.stringify(json), bodyBytes: undefined };
}
