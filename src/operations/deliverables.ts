import { findDeliverable } from '../builds/builds-service.js';
import type { ServiceHandler } from './context.js';
import { deliverableJson } from './serialize.js';

export const getDeliverable: ServiceHandler = ({ sim, account, params, now }) => {
  const view = findDeliverable(sim.builds, account, params.path.deliverableId as string, now);
  return { status: 200, json: deliverableJson(view.build, view.pageIndex, view.content) };
};

const FORMATS = {
  md: { contentType: 'text/markdown; charset=utf-8', field: 'markdown' },
  html: { contentType: 'text/html; charset=utf-8', field: 'html' },
} as const;

export const downloadDeliverable: ServiceHandler = ({ sim, account, params, now }) => {
  const format = params.query.format as keyof typeof FORMATS;
  const { content } = findDeliverable(sim.builds, account, params.path.deliverableId as string, now);
  const { contentType, field } = FORMATS[format];
  const fileName = `${/^[a-z0-9-]+$/.test(content.slug) ? content.slug : 'deliverable'}.${format}`;
  return {
    status: 200,
    file: { body: content[field], contentType },
    headers: { 'content-disposition': `attachment; filename="${fileName}"` },
  };
};
