/** The pixel size of an image from its header (PNG, GIF, JPEG, WebP, BMP), and a one-line description of attached media. */
import { formatBytes } from './file-content.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height, or undefined when the header is not one of the known formats or is cut short. */
export function imageSize(bytes: Buffer): ImageSize | undefined {
  try {
    if (
      bytes.length >= 24 &&
      bytes.readUInt32BE(0) === 0x89504e47 &&
      bytes.toString('latin1', 12, 16) === 'IHDR'
    ) {
      return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
    }
    if (bytes.length >= 10 && bytes.toString('latin1', 0, 4) === 'GIF8') {
      return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
    }
    if (bytes.length >= 26 && bytes.toString('latin1', 0, 2) === 'BM') {
      return { width: bytes.readInt32LE(18), height: Math.abs(bytes.readInt32LE(22)) };
    }
    if (
      bytes.length >= 30 &&
      bytes.toString('latin1', 0, 4) === 'RIFF' &&
      bytes.toString('latin1', 8, 12) === 'WEBP'
    ) {
      return webpSize(bytes);
    }
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  } catch {
    // A header cut short: no size to report.
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker. */
function jpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame)
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return undefined;
}

/** `image/png, 73 B, 1×1 pixels`: what is attached, for the person and the model. */
export function describeMedia(mimeType: string, size: number, base64?: string): string {
  const facts = [mimeType, formatBytes(size)];
  if (mimeType.startsWith('image/') && base64) {
    // The header is within the first few kilobytes, except for JPEGs with large metadata.
    const dimensions = imageSize(Buffer.from(base64.slice(0, 96 * 1024), 'base64'));
    if (dimensions) facts.push(`${dimensions.width}×${dimensions.height} pixels`);
  }
  return facts.join(', ');
}
