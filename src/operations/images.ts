import { assertRoomFor } from '../limits/quotas.js';
import { imageJson } from '../images/image-json.js';
import { createImage as create, findImage, renderImageFile, type ImageCreateInput } from '../images/images-service.js';
import type { ServiceHandler } from './context.js';
import { pageJson } from './serialize.js';

export const createImage: ServiceHandler = ({ sim, account, body, now }) => {
  assertRoomFor(sim.quotas, account, 'images');
  const image = create(account, body as ImageCreateInput, now);
  return { status: 201, json: imageJson(image), headers: { location: `/api/v1/images/${image.id}` } };
};

export const listImages: ServiceHandler = ({ account, params }) => {
  const { limit, cursor } = params.query as { limit: number; cursor?: string };
  const page = account.images.page(limit, cursor);
  return { status: 200, json: pageJson(page, imageJson) };
};

export const getImage: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: imageJson(findImage(account, params.path.imageId as string)),
});

export const getImageFile: ServiceHandler = ({ sim, account, params }) => {
  const image = findImage(account, params.path.imageId as string);
  // Rendered once and kept with generated content (bounded in bytes): an image is read far more often than made.
  const cache = sim.builds.contentCache;
  const cached = cache?.rendered(image.id);
  const svg = typeof cached === 'string' ? cached : renderImageFile(sim.seed, image);
  if (cached === undefined) cache?.keepRendered(image.id, svg);
  return {
    status: 200,
    file: { body: svg, contentType: 'image/svg+xml' },
    headers: { 'content-disposition': `inline; filename="${image.id}.svg"` },
  };
};
