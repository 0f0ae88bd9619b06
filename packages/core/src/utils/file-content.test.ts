import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText, detectFileType, encodeText, formatBytes, isBinary } from './file-content.js';

const chinese =
  '这是一个用于测试编码检测的中文句子，其中包含足够多的汉字以便判断。\n第二行也有更多的中文内容。\n';
const japanese =
  'これは文字コードの検出をテストするための日本語の文章です。十分な長さが必要です。\n二行目です。\n';

describe('decodeText / encodeText', () => {
  it('decodes UTF-8 and finds the line ending', () => {
    expect(decodeText(Buffer.from('a\r\nb\r\n'))).toEqual({
      text: 'a\r\nb\r\n',
      encoding: 'utf-8',
      bom: false,
      lineEnding: '\r\n',
    });
  });

  it('removes a UTF-8 BOM and writes it back', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('héllo')]);
    const decoded = decodeText(bytes);
    expect(decoded).toMatchObject({ text: 'héllo', encoding: 'utf-8', bom: true });
    expect(encodeText(decoded.text, decoded).equals(bytes)).toBe(true);
  });

  it('decodes UTF-16 LE and BE with BOM and writes them back', () => {
    for (const [encoding, bom] of [
      ['utf-16le', [0xff, 0xfe]],
      ['utf-16be', [0xfe, 0xff]],
    ] as const) {
      const bytes = Buffer.concat([Buffer.from(bom), iconv.encode('ünïcode\n', encoding)]);
      const decoded = decodeText(bytes);
      expect(decoded).toMatchObject({ text: 'ünïcode\n', encoding, bom: true });
      expect(encodeText(decoded.text, decoded).equals(bytes)).toBe(true);
    }
  });

  it('detects GBK text and writes it back byte for byte', () => {
    const bytes = iconv.encode(chinese, 'gbk');
    const decoded = decodeText(bytes);
    expect(decoded.text).toBe(chinese);
    expect(decoded.encoding).toBe('gb18030');
    expect(encodeText(decoded.text, decoded).equals(bytes)).toBe(true);
  });

  it('detects Shift-JIS text', () => {
    const bytes = iconv.encode(japanese, 'shift_jis');
    const decoded = decodeText(bytes);
    expect(decoded.text).toBe(japanese);
    expect(encodeText(decoded.text, decoded).equals(bytes)).toBe(true);
  });
});

describe('decodeText: the encoding preference', () => {
  it('is asked for only when a file is neither UTF-8 nor marked by a BOM', () => {
    let asked = 0;
    const preference = () => {
      asked++;
      return ['shift_jis'];
    };
    expect(decodeText(Buffer.from('plain text, ünïcode\n'), preference).encoding).toBe('utf-8');
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), preference).encoding).toBe('utf-8');
    expect(asked).toBe(0);
    const legacy = iconv.encode('日本語のテキストです。これはテストです。\n', 'shift_jis');
    expect(decodeText(legacy, preference).encoding).toBe('shift_jis');
    expect(asked).toBe(1);
  });
});

describe('detectFileType', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  it('knows media by extension', () => {
    expect(detectFileType('/a/b.JPG', Buffer.alloc(0))).toEqual({
      kind: 'image',
      mimeType: 'image/jpeg',
    });
    expect(detectFileType('/a/b.pdf', Buffer.alloc(0))).toEqual({
      kind: 'pdf',
      mimeType: 'application/pdf',
    });
    expect(detectFileType('/a/b.mp3', Buffer.alloc(0))).toEqual({
      kind: 'audio',
      mimeType: 'audio/mpeg',
    });
  });
  it('knows media by signature when the name does not tell', () => {
    expect(detectFileType('/a/logo', png)).toEqual({ kind: 'image', mimeType: 'image/png' });
    expect(detectFileType('/a/doc', Buffer.from('%PDF-1.7\n'))).toEqual({
      kind: 'pdf',
      mimeType: 'application/pdf',
    });
  });
  it('tells binary from text', () => {
    expect(detectFileType('/a/x.bin', Buffer.from([1, 2, 0, 4]))).toEqual({ kind: 'binary' });
    expect(detectFileType('/a/x.ts', Buffer.from('const a = 1;\n'))).toEqual({ kind: 'text' });
    expect(isBinary(Buffer.from([0xff, 0xfe, 0x41, 0x00]))).toBe(false);
    expect(isBinary(iconv.encode(chinese, 'gbk'))).toBe(false);
  });
});

describe('formatBytes', () => {
  it('formats sizes', () => {
    expect(formatBytes(12)).toBe('12 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(21 * 1024 * 1024)).toBe('21.0 MB');
  });
});
