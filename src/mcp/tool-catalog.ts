import type { Scope } from '../credentials/api-key.js';
import type { Operation, ParameterSpec } from '../contract/operations.js';
import { SchemaBundler } from './json-schema.js';
import { portableSchema } from './portable-schema.js';

/**
 * One MCP tool per operation of openapi.yaml, named by its operationId and derived from the
 * contract alone: a new operation becomes a tool with no code here. Its schemas admit what
 * the contract admits, spelled as function-calling converters accept (see portable-schema).
 */
type Json = Record<string, unknown>;
/** MCP wants an object schema at the root of a tool's input and output. */
export type ObjectSchema = Json & { type: 'object' };

export interface ToolArgument {
  /** The argument's name in the tool's input (`buildId`, `limit`, `idempotencyKey`). */
  name: string;
  in: ParameterSpec['in'];
  /** The parameter's name in the request (`Idempotency-Key` for a header). */
  wireName: string;
  required: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema?: ObjectSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  operation: Operation;
  scope: Scope | null;
  arguments: ToolArgument[];
  /** How the request body travels: its fields beside the parameters, under `body`, or none. */
  body: 'flat' | 'nested' | 'none';
}

export function buildToolCatalog(document: unknown, operations: Operation[]): Map<string, ToolDefinition> {
  const doc = document as Json;
  const bundler = new SchemaBundler(doc);
  const tools = new Map<string, ToolDefinition>();
  for (const operation of operations) {
    const raw = ((doc.paths as Json)[operation.template] as Json)[operation.method.toLowerCase()] as Json;
    tools.set(operation.operationId, describeTool(operation, raw, bundler));
  }
  return tools;
}

function describeTool(operation: Operation, raw: Json, bundler: SchemaBundler): ToolDefinition {
  const args = operation.parameters
    .filter((p) => !(p.in === 'header' && p.name.toLowerCase() === 'authorization'))
    .map((p): ToolArgument => ({ name: argumentName(p), in: p.in, wireName: p.name, required: p.required }));
  const properties: Json = {};
  for (const [i, p] of operation.parameters.entries()) {
    const arg = args.find((a) => a.wireName === p.name && a.in === p.in);
    if (!arg) continue;
    const description = (raw.parameters as Json[] | undefined)?.[i]?.description;
    properties[arg.name] = { ...p.schema, ...(typeof description === 'string' ? { description } : {}) };
  }
  const required = args.filter((a) => a.required).map((a) => a.name);
  const input: Json = { type: 'object', properties, required, additionalProperties: false };

  let body: ToolDefinition['body'] = 'none';
  const bodySchema = jsonContentSchema(raw.requestBody as Json | undefined);
  if (bodySchema) {
    const resolved = bundler.resolve(bodySchema);
    const fields = resolved.properties as Json | undefined;
    const flat = resolved.type === 'object' && fields && !Object.keys(fields).some((name) => name in properties);
    if (flat) {
      body = 'flat';
      Object.assign(input, withoutKeys(resolved, ['properties', 'required', 'description', 'type', 'additionalProperties']));
      Object.assign(properties, fields);
      required.push(...((resolved.required as string[] | undefined) ?? []));
    } else {
      body = 'nested';
      properties.body = bodySchema;
      if (operation.bodyRequired) required.push('body');
    }
  }
  const inputSchema = portableSchema(bundler.bundle(input)) as ObjectSchema;
  const outputSchema = successSchema(raw, bundler);
  const method = operation.method;
  const title = (raw.summary as string | undefined) ?? operation.operationId;
  const idempotencyHeader = args.some((a) => a.in === 'header' && a.wireName.toLowerCase() === 'idempotency-key');
  return {
    name: operation.operationId,
    title,
    description: [raw.summary, raw.description].filter((s) => typeof s === 'string' && s.trim()).join('\n\n').trim() || title,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      title,
      readOnlyHint: method === 'GET',
      destructiveHint: method === 'DELETE' || /^(revoke|delete|rotate)/.test(operation.operationId),
      idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE' || idempotencyHeader,
      openWorldHint: false,
    },
    operation,
    scope: operation.scope,
    arguments: args,
    body,
  };
}

/** `Idempotency-Key` becomes `idempotencyKey`; path and query names stay as they are. */
function argumentName(p: ParameterSpec): string {
  if (p.in !== 'header') return p.name;
  return p.name.toLowerCase().replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function jsonContentSchema(holder: Json | undefined): unknown {
  const content = holder?.content as Json | undefined;
  return (content?.['application/json'] as Json | undefined)?.schema;
}

/** The JSON body of the success responses; several distinct ones become a union. */
function successSchema(raw: Json, bundler: SchemaBundler): ObjectSchema | undefined {
  const schemas: unknown[] = [];
  for (const [status, response] of Object.entries((raw.responses as Json) ?? {})) {
    if (!status.startsWith('2')) continue;
    const schema = jsonContentSchema(response as Json);
    if (schema && !schemas.some((s) => JSON.stringify(s) === JSON.stringify(schema))) schemas.push(schema);
  }
  if (schemas.length === 0) return undefined;
  // MCP wants an object at the root of an output schema; every success body here is one.
  const root: Json = schemas.length === 1 ? { allOf: [schemas[0]] } : { anyOf: schemas };
  return portableSchema(bundler.bundle({ type: 'object', ...root })) as ObjectSchema;
}

function withoutKeys(schema: Json, keys: string[]): Json {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key) && !key.startsWith('x-')));
}
