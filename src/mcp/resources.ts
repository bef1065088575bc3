import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.js';
import { callTool, toolError, type EngineCall } from './tool-call.js';
import type { ToolDefinition } from './tool-catalog.js';

/** One resource: its public template, and the operation a read of it runs as a tool call. */
interface ResourceRoute {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  tool: string;
  /** The tool's arguments, from the template's variables in order. */
  args: (...values: string[]) => Record<string, unknown>;
}

/**
 * Deliverables and a target's library as MCP resources: each read is the operation it
 * names (downloadDeliverable, getDeliverable, listLibraryItems), run as a tool call.
 */
const RESOURCES: readonly ResourceRoute[] = [
  {
    uriTemplate: 'content-service://deliverables/{deliverableId}.md',
    name: 'deliverable-markdown',
    title: 'Deliverable as Markdown',
    description: 'The content of a deliverable, as downloadDeliverable with format=md answers it.',
    mimeType: 'text/markdown',
    tool: 'downloadDeliverable',
    args: (deliverableId) => ({ deliverableId, format: 'md' }),
  },
  {
    uriTemplate: 'content-service://deliverables/{deliverableId}.html',
    name: 'deliverable-html',
    title: 'Deliverable as HTML',
    description: 'The content of a deliverable, as downloadDeliverable with format=html answers it.',
    mimeType: 'text/html',
    tool: 'downloadDeliverable',
    args: (deliverableId) => ({ deliverableId, format: 'html' }),
  },
  {
    uriTemplate: 'content-service://deliverables/{deliverableId}',
    name: 'deliverable',
    title: 'Deliverable with sources and claims',
    description: 'The full deliverable, as getDeliverable answers it.',
    mimeType: 'application/json',
    tool: 'getDeliverable',
    args: (deliverableId) => ({ deliverableId }),
  },
  {
    uriTemplate: 'content-service://targets/{targetId}/library',
    name: 'target-library',
    title: 'Library of a target',
    description: 'The first page of the target’s library items, as listLibraryItems answers it.',
    mimeType: 'application/json',
    tool: 'listLibraryItems',
    args: (targetId) => ({ targetId, limit: 100 }),
  },
];

/** What resources/templates/list answers. */
export const RESOURCE_TEMPLATES = RESOURCES.map(({ uriTemplate, name, title, description, mimeType }) => ({ uriTemplate, name, title, description, mimeType }));

/** A template's variables match one path segment without a dot (ids never hold one). */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return new RegExp(`^${parts.join('([^/.]+)')}$`);
}

const ROUTES = RESOURCES.map((resource) => ({ ...resource, pattern: templatePattern(resource.uriTemplate) }));

export function readResource(uri: string, principal: Principal | undefined, tools: Map<string, ToolDefinition>, engine: EngineCall) {
  for (const route of ROUTES) {
    const match = uri.match(route.pattern);
    const tool = match && tools.get(route.tool);
    if (!match || !tool) continue;
    const result = callTool(tool, route.args(...match.slice(1)), principal, engine);
    if (result.isError) {
      const error = toolError(result) ?? { error: 'The service refused the read.', code: 'INTERNAL_ERROR', details: {} };
      if (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_ERROR') throw new ResourceNotFoundError(uri, error.error);
      throw new ProtocolError(ProtocolErrorCode.InternalError, error.error, error);
    }
    const block = result.content[0];
    if (block?.type === 'resource' && 'text' in block.resource) return { contents: [{ uri, mimeType: route.mimeType, text: block.resource.text }] };
    return { contents: [{ uri, mimeType: route.mimeType, text: JSON.stringify(result.structuredContent) }] };
  }
  throw new ResourceNotFoundError(uri, `No resource at ${uri}: see resources/templates/list.`);
}
