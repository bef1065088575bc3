import type { Scope } from '../credentials/api-key.js';
import type { RateLimitClass } from '../limits/rate-limiter.js';

/** What the engine needs to know of one operation, read from the OpenAPI documents. */
/** The media types a YAML request body may be sent with. */
export const YAML_TYPES = ['application/yaml', 'text/yaml'];

export interface Operation {
  operationId: string;
  method: string;
  /** e.g. `/api/v1/builds/{buildId}` */
  template: string;
  /** Which document: the service's contract, or the simulator's control API. */
  documentId: 'service' | 'control';
  /** The scope the operation needs; null for control operations (no key). */
  scope: Scope | null;
  rateLimitClass: RateLimitClass;
  parameters: ParameterSpec[];
  /** JSON pointer of the request body schema within its document, when there is a body. */
  bodySchemaPointer: string | null;
  bodyRequired: boolean;
  /** The body may also be sent as YAML (`application/yaml` or `text/yaml` in the contract): a scenario. */
  bodyYaml: boolean;
  /**
   * The handler reads the body itself, a slice at a time (`x-body-read-in-slices`, a restore):
   * the engine checks its size and media type only, and hands over the bytes.
   */
  bodyInSlices: boolean;
  /** The documented response statuses: what an injected fault may answer. */
  statuses: number[];
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export function readOperations(document: unknown, documentId: Operation['documentId']): Operation[] {
  const doc = document as Json;
  const paths = doc.paths as Record<string, Json>;
  const operations: Operation[] = [];
  for (const [template, pathItem] of Object.entries(paths)) {
    const shared = (pathItem.parameters as Json[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = pathItem[method] as Json | undefined;
      // Pages the server adapters serve around the engine (the docs): documented, not routed here.
      if (!op || op['x-served-by-adapter'] === true) continue;
      const params = [...shared, ...((op.parameters as Json[] | undefined) ?? [])].map((p) => resolveParameter(doc, p));
      const body = op.requestBody as Json | undefined;
      const jsonBody = body ? ((body.content as Json)['application/json'] as Json | undefined) : undefined;
      const bodyRef = jsonBody ? ((jsonBody.schema as Json).$ref as string | undefined) : undefined;
      operations.push({
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        template,
        documentId,
        scope: (op['x-required-scope'] as Scope | undefined) ?? null,
        rateLimitClass: (op['x-rate-limit-class'] as RateLimitClass | undefined) ?? 'default',
        parameters: params,
        bodySchemaPointer: bodyRef ?? (jsonBody ? `#/paths/${escapePointer(template)}/${method}/requestBody/content/application~1json/schema` : null),
        bodyRequired: Boolean(body?.required),
        bodyYaml: Boolean(body && YAML_TYPES.some((type) => type in (body.content as Json))),
        bodyInSlices: body?.['x-body-read-in-slices'] === true,
        statuses: Object.keys((op.responses as Json | undefined) ?? {}).map(Number).filter(Number.isInteger),
      });
    }
  }
  return operations;
}

function resolveParameter(doc: Json, param: Json): ParameterSpec {
  const p = typeof param.$ref === 'string' ? (resolvePointer(doc, param.$ref) as Json) : param;
  return {
    name: p.name as string,
    in: p.in as ParameterSpec['in'],
    required: Boolean(p.required),
    schema: (p.schema as Json | undefined) ?? {},
  };
}

export function resolvePointer(doc: unknown, ref: string): unknown {
  let node = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
