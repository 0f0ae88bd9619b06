/**
 * Images in formats a model API does not take, converted to PNG where that can be done
 * without native code: BMP (every bit depth and the RLE variants) today.
 */
import { decode as decodeBmp } from 'bmp-ts';
import { encode as encodePng } from 'fast-png';

const BMP_TYPES = new Set(['image/bmp', 'image/x-bmp', 'image/x-ms-bmp']);

/** True when `convertToPng` can convert this type. */
export function canConvertToPng(mimeType: string): boolean {
  return BMP_TYPES.has(mimeType.toLowerCase());
}

/** The image as base64 PNG, or undefined when the data cannot be decoded. */
export function convertToPng(mimeType: string, base64: string): string | undefined {
  if (!canConvertToPng(mimeType)) return undefined;
  try {
    // bmp-ts gives 4 bytes per pixel in A, B, G, R order; the alpha byte is not reliable.
    const bitmap = decodeBmp(Buffer.from(base64, 'base64'));
    const { width, height } = bitmap;
    if (!width || !height) return undefined;
    const pixels = new Uint8Array(width * height * 3);
    for (let source = 0, target = 0; target < pixels.length; source += 4, target += 3) {
      pixels[target] = bitmap.data[source + 3] ?? 0;
      pixels[target + 1] = bitmap.data[source + 2] ?? 0;
      pixels[target + 2] = bitmap.data[source + 1] ?? 0;
    }
    const png = encodePng({ width, height, data: pixels, channels: 3, depth: 8 });
    return Buffer.from(png).toString('base64');
  } catch {
    return undefined;
  }
}
