import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test/helpers/temp-workspace.js';
import { describeMedia, imageSize } from './image-size.js';

/** The smallest headers each format needs, built byte by byte from the format's layout. */
function gif(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  return header;
}

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
  const frame = Buffer.alloc(11);
  frame.writeUInt16BE(0xffc0, 0);
  frame.writeUInt16BE(9, 2);
  frame[4] = 8;
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame]);
}

function webpLossless(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'latin1');
  bytes.write('WEBPVP8L', 8, 'latin1');
  bytes[20] = 0x2f;
  bytes.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
  return bytes;
}

describe('imageSize', () => {
  it('reads PNG and BMP fixtures', () => {
    expect(imageSize(readFileSync(path.join(FIXTURES, 'pixel.png')))).toEqual({
      width: 1,
      height: 1,
    });
    expect(imageSize(readFileSync(path.join(FIXTURES, 'colors-3x2.bmp')))).toEqual({
      width: 3,
      height: 2,
    });
  });

  it('reads GIF, JPEG and WebP headers', () => {
    expect(imageSize(gif(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize(jpeg(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(webpLossless(300, 200))).toEqual({ width: 300, height: 200 });
  });

  it('gives nothing for a cut or unknown header', () => {
    expect(imageSize(Buffer.from('not an image'))).toBeUndefined();
    expect(imageSize(jpeg(10, 10).subarray(0, 9))).toBeUndefined();
  });

  it('describes attached media in one line', () => {
    const data = readFileSync(path.join(FIXTURES, 'pixel.png'));
    expect(describeMedia('image/png', data.length, data.toString('base64'))).toBe(
      `image/png, ${data.length} B, 1×1 pixels`,
    );
    expect(describeMedia('audio/wav', 2048)).toBe('audio/wav, 2.0 KB');
  });
});
