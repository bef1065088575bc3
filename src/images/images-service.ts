/**
 * Image generation outside builds: the record keeps only the request's parameters (and
 * the logo text as drawn), and the SVG is rendered from them on every download. Rendering
 * is deterministic, so the same image always gives the same bytes.
 */
import { assertAffordable, chargeImage } from '../ledger/ledger.js';
import {
  type ImageMood, type ImageSize, type ImageStyle, type LogoPosition, imageDimensions, renderImageSvg,
} from '../media/index.js';
import type { Account } from '../store/account.js';
import type { ImageRecord } from '../store/records.js';
import { findTarget } from '../targets/targets-service.js';

/** Tokens one image costs: the same as the image surcharge of a build page (inferred). */
export const IMAGE_PRICE = 1;

export const IMAGE_DEFAULTS = { style: 'illustration', mood: 'calm', size: '1024x1024', logoPosition: 'bottom-right' } as const;

export interface ImageCreateInput {
  prompt: string;
  style?: ImageStyle;
  mood?: ImageMood;
  colors?: string[];
  size?: ImageSize;
  logo?: { targetId?: string; text?: string; position?: LogoPosition };
}

function resolveLogo(account: Account, logo: ImageCreateInput['logo']): ImageRecord['logo'] {
  if (!logo) return null;
  const position = logo.position ?? IMAGE_DEFAULTS.logoPosition;
  // The schema admits exactly one of targetId or text. A target's name is copied now, like
  // a build's target snapshot: renaming the target later does not repaint the image.
  if (logo.targetId !== undefined) return { text: findTarget(account, logo.targetId).name, position, targetId: logo.targetId };
  return { text: (logo.text as string).trim(), position, targetId: null };
}

/** Checks everything first (target, balance), then charges and stores: a refused request writes nothing. */
export function createImage(account: Account, input: ImageCreateInput, now: number): ImageRecord {
  const logo = resolveLogo(account, input.logo);
  assertAffordable(account, IMAGE_PRICE, 'This image');
  const id = account.newId();
  const image: ImageRecord = {
    id,
    prompt: input.prompt,
    style: input.style ?? IMAGE_DEFAULTS.style,
    mood: input.mood ?? IMAGE_DEFAULTS.mood,
    colors: input.colors ?? [],
    size: input.size ?? IMAGE_DEFAULTS.size,
    logo,
    cost: IMAGE_PRICE,
    createdAt: now,
  };
  chargeImage(account, IMAGE_PRICE, `Image ${id}: ${image.size} ${image.style}`, now);
  return account.images.add(image);
}

export function findImage(account: Account, id: string): ImageRecord {
  return account.images.require(id);
}

export function imageSize(image: ImageRecord): { width: number; height: number } {
  return imageDimensions(image.size);
}

export function renderImageFile(seed: string, image: ImageRecord): string {
  // The record holds the renderer's input; only the logo carries an extra field (its target).
  const { logo, cost: _cost, createdAt: _createdAt, ...picture } = image;
  return renderImageSvg({ seed, ...picture, ...(logo ? { logo: { text: logo.text, position: logo.position } } : {}) });
}
