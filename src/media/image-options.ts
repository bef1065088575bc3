/**
 * The vocabulary of image generation (styles, moods, sizes, logo corners) and the checks
 * the renderer applies. The engine validates requests first; these checks only make a
 * programming error fail loudly instead of drawing a broken picture.
 */

export const IMAGE_STYLES = ['photo', 'illustration', 'flat', 'watercolor', 'line_art', '3d'] as const;
export type ImageStyle = (typeof IMAGE_STYLES)[number];

export const IMAGE_MOODS = ['calm', 'energetic', 'serious', 'playful', 'warm', 'dramatic'] as const;
export type ImageMood = (typeof IMAGE_MOODS)[number];

export const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];

export const MAX_IMAGE_COLORS = 5;

/** Colors are `#rrggbb` (either case); they are drawn exactly as given. */
export const HEX_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

export interface ImageLogo {
  text: string;
  position: LogoPosition;
}

export interface ImageSvgInput {
  seed: string;
  id: string;
  prompt: string;
  style: ImageStyle;
  mood: ImageMood;
  /** 0 to 5 colors `#rrggbb`; none means a palette derived from the mood. */
  colors: string[];
  size: ImageSize;
  logo?: ImageLogo;
}

export function imageDimensions(size: ImageSize): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
}

function oneOf<T extends string>(list: readonly T[], value: unknown, what: string): void {
  if (!list.includes(value as T)) {
    throw new Error(`renderImageSvg: unknown ${what} ${JSON.stringify(value)}; expected one of ${list.join(', ')}`);
  }
}

export function assertImageInput(input: ImageSvgInput): void {
  oneOf(IMAGE_STYLES, input.style, 'style');
  oneOf(IMAGE_MOODS, input.mood, 'mood');
  oneOf(IMAGE_SIZES, input.size, 'size');
  if (!Array.isArray(input.colors) || input.colors.length > MAX_IMAGE_COLORS) {
    throw new Error(`renderImageSvg: colors must be an array of at most ${MAX_IMAGE_COLORS} entries`);
  }
  for (const color of input.colors) {
    if (typeof color !== 'string' || !HEX_COLOR_PATTERN.test(color)) {
      throw new Error(`renderImageSvg: color ${JSON.stringify(color)} is not #rrggbb`);
    }
  }
  if (input.logo !== undefined) oneOf(LOGO_POSITIONS, input.logo.position, 'logo position');
}
