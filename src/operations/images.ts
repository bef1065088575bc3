import { imageJson } from '../images/image-json.js';
import { createImage as create, findImage, renderImageFile, type ImageCreateInput } from '../images/images-service.js';
import type { ServiceHandler } from './context.js';
import { pageJson } from './serialize.js';

export const createImage: ServiceHandler = ({ account, body, now }) => {
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
  return {
    status: 200,
    file: { body: renderImageFile(sim.seed, image), contentType: 'image/svg+xml' },
    headers: { 'content-disposition': `inline; filename="${image.id}.svg"` },
  };
};
