import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.js';
import { callTool, toolError, type EngineCall } from './tool-call.js';
import type { ToolDefinition } from './tool-catalog.js';

/**
 * Deliverables and a target's library as MCP resources: each read is the operation it
 * names (downloadDeliverable, getDeliverable, listLibraryItems), run as a tool call.
 */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'content-service://deliverables/{deliverableId}.md',
    name: 'deliverable-markdown',
    title: 'Deliverable as Markdown',
    description: 'The content of a deliverable, as downloadDeliverable with format=md answers it.',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'content-service://deliverables/{deliverableId}.html',
    name: 'deliverable-html',
    title: 'Deliverable as HTML',
    description: 'The content of a deliverable, as downloadDeliverable with format=html answers it.',
    mimeType: 'text/html',
  },
  {
    uriTemplate: 'content-service://deliverables/{deliverableId}',
    name: 'deliverable',
    title: 'Deliverable with sources and claims',
    description: 'The full deliverable, as getDeliverable answers it.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'content-service://targets/{targetId}/library',
    name: 'target-library',
    title: 'Library of a target',
    description: 'The first page of the target’s library items, as listLibraryItems answers it.',
    mimeType: 'application/json',
  },
];

const ROUTES: { pattern: RegExp; tool: string; args: (m: RegExpMatchArray) => Record<string, unknown>; mimeType: string }[] = [
  { pattern: /^content-service:\/\/deliverables\/([^/.]+)\.md$/, tool: 'downloadDeliverable', args: (m) => ({ deliverableId: m[1], format: 'md' }), mimeType: 'text/markdown' },
  { pattern: /^content-service:\/\/deliverables\/([^/.]+)\.html$/, tool: 'downloadDeliverable', args: (m) => ({ deliverableId: m[1], format: 'html' }), mimeType: 'text/html' },
  { pattern: /^content-service:\/\/deliverables\/([^/.]+)$/, tool: 'getDeliverable', args: (m) => ({ deliverableId: m[1] }), mimeType: 'application/json' },
  { pattern: /^content-service:\/\/targets\/([^/.]+)\/library$/, tool: 'listLibraryItems', args: (m) => ({ targetId: m[1], limit: 100 }), mimeType: 'application/json' },
];

export function readResource(uri: string, principal: Principal | undefined, tools: Map<string, ToolDefinition>, engine: EngineCall) {
  for (const route of ROUTES) {
    const match = uri.match(route.pattern);
    const tool = match && tools.get(route.tool);
    if (!match || !tool) continue;
    const result = callTool(tool, route.args(match), principal, engine);
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
