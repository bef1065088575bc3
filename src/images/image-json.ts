import { toIso } from '../clock/clock.js';
import type { ImageRecord } from '../store/records.js';
import { imageSize } from './images-service.js';

/** An image record as the `Image` schema of openapi.yaml. */
export function imageJson(image: ImageRecord) {
  return {
    id: image.id,
    prompt: image.prompt,
    style: image.style,
    mood: image.mood,
    colors: image.colors,
    size: image.size,
    ...imageSize(image),
    logo: image.logo,
    cost: image.cost,
    createdAt: toIso(image.createdAt),
    fileUrl: imageFileUrl(image.id),
  };
}

export function imageFileUrl(id: string): string {
  return `/api/v1/images/${id}/file`;
}
