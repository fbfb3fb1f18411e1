import { refuseFile } from '../storage/checks.js';

/**
 * The small and medium renditions of an avatar (spec 2.7: `url_small`, `url_medium`): squares of 64 and
 * 256 pixels, cropped to the middle, turned upright by the photo's orientation, as WebP, with no
 * metadata (a phone's photo carries where it was taken). Made once, at upload. sharp (libvips, shipped
 * inside its package) is loaded on the first upload, so a server that never takes one never holds it.
 */
export const RENDITION_SIZES = { small: 64, medium: 256 } as const;

/** Pixels past which an image is refused before it is decoded: a 100 KB file can claim a billion. */
const MAX_PIXELS = 40_000_000;

/** The renditions of a checked upload; an image libvips cannot read, or too large, is refused as the upload checks refuse (422 on `file`). */
export async function avatarRenditions(image: Buffer, fileName: string): Promise<{ small: Buffer; medium: Buffer }> {
  const { default: sharp } = await import('sharp');
  const rendition = (size: number) => sharp(image, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
    .rotate().resize(size, size, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
  try {
    const [small, medium] = await Promise.all([rendition(RENDITION_SIZES.small), rendition(RENDITION_SIZES.medium)]);
    return { small, medium };
  } catch (err) {
    const reason = /pixel limit/i.test((err as Error).message) ? `is larger than ${MAX_PIXELS.toLocaleString('en')} pixels` : 'cannot be read as an image';
    return refuseFile([`${fileName}: ${reason}`]);
  }
}
