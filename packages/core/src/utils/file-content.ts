/**
 * What a file holds and how to turn its bytes into text: media type by content and name,
 * binary detection, and decoding of UTF-8 (with or without BOM), UTF-16 with BOM and
 * legacy encodings (GBK, Shift-JIS...). Writers use the same facts to write a file back
 * the way it was.
 */
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { iconv } from './encoding-libraries.js';
import { detectLegacyEncoding, legacyEncodingPreference } from './legacy-encoding.js';

export const MAX_FILE_SIZE_BYTES = 20 * 1024 * 1024;

export type FileKind = 'text' | 'image' | 'pdf' | 'audio' | 'binary';

const MEDIA_BY_EXTENSION: Record<string, { kind: FileKind; mimeType: string }> = {
  '.png': { kind: 'image', mimeType: 'image/png' },
  '.jpg': { kind: 'image', mimeType: 'image/jpeg' },
  '.jpeg': { kind: 'image', mimeType: 'image/jpeg' },
  '.gif': { kind: 'image', mimeType: 'image/gif' },
  '.webp': { kind: 'image', mimeType: 'image/webp' },
  '.bmp': { kind: 'image', mimeType: 'image/bmp' },
  '.pdf': { kind: 'pdf', mimeType: 'application/pdf' },
  '.mp3': { kind: 'audio', mimeType: 'audio/mpeg' },
  '.wav': { kind: 'audio', mimeType: 'audio/wav' },
  '.ogg': { kind: 'audio', mimeType: 'audio/ogg' },
  '.oga': { kind: 'audio', mimeType: 'audio/ogg' },
  '.flac': { kind: 'audio', mimeType: 'audio/flac' },
  '.m4a': { kind: 'audio', mimeType: 'audio/mp4' },
  '.aac': { kind: 'audio', mimeType: 'audio/aac' },
  '.weba': { kind: 'audio', mimeType: 'audio/webm' },
};

/** Signatures of media files, for files whose name does not tell. */
const MAGIC: { bytes: number[]; offset?: number; kind: FileKind; mimeType: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'image', mimeType: 'image/png' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'image', mimeType: 'image/jpeg' },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: 'image', mimeType: 'image/gif' },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, kind: 'image', mimeType: 'image/webp' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'pdf', mimeType: 'application/pdf' },
  { bytes: [0x57, 0x41, 0x56, 0x45], offset: 8, kind: 'audio', mimeType: 'audio/wav' },
  { bytes: [0x49, 0x44, 0x33], kind: 'audio', mimeType: 'audio/mpeg' },
  { bytes: [0x4f, 0x67, 0x67, 0x53], kind: 'audio', mimeType: 'audio/ogg' },
  { bytes: [0x66, 0x4c, 0x61, 0x43], kind: 'audio', mimeType: 'audio/flac' },
];

export interface FileType {
  kind: FileKind;
  mimeType?: string;
}

/** Decides what a file is from its name and its first bytes (a few KB are enough). */
export function detectFileType(filePath: string, head: Buffer): FileType {
  const byName = MEDIA_BY_EXTENSION[path.extname(filePath).toLowerCase()];
  if (byName) return byName;
  for (const magic of MAGIC) {
    const offset = magic.offset ?? 0;
    if (magic.bytes.every((byte, i) => head[offset + i] === byte)) {
      return { kind: magic.kind, mimeType: magic.mimeType };
    }
  }
  return isBinary(head) ? { kind: 'binary' } : { kind: 'text' };
}

/** Control characters text does not use (7 to 13, tab and line ends among them, and escape are fine). */
const SUSPICIOUS_CONTROL = /[\x00-\x06\x0e-\x1a\x1c-\x1f]/;

/** True for bytes that are not text: a NUL byte (outside UTF-16), or many control characters. */
export function isBinary(head: Buffer): boolean {
  if (head.length === 0) return false;
  if (detectBom(head)) return false;
  const sample = head.subarray(0, 8192);
  if (sample.indexOf(0) !== -1) return true;
  // Control characters are counted over the first kilobyte: enough to tell, and cheap.
  const start = sample.subarray(0, 1024);
  // Most text has none at all, which one native scan settles.
  if (!SUSPICIOUS_CONTROL.test(start.toString('latin1'))) return false;
  let suspicious = 0;
  // An indexed loop: a Buffer's iterator costs more than the reading of a small file.
  for (let i = 0; i < start.length; i++) {
    const byte = start[i]!;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) suspicious++;
  }
  return suspicious / start.length > 0.1;
}

export type Bom = 'utf-8' | 'utf-16le' | 'utf-16be';

export function detectBom(bytes: Buffer): Bom | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

export interface DecodedText {
  text: string;
  /** An iconv-lite encoding name: `utf-8`, `utf-16le`, `gb18030`, `shift_jis`... */
  encoding: string;
  bom: boolean;
  /** The dominant line ending of the file. */
  lineEnding: '\n' | '\r\n';
}

/**
 * Legacy encodings to prefer on a tie, or a function giving them: asked only when a file
 * is neither UTF-8 nor marked by a BOM, since finding the system's locale can take the
 * runtime's whole locale data to load (a noticeable part of a command's start).
 */
export type EncodingPreference = readonly string[] | (() => readonly string[]);

/** Decodes file bytes into text, detecting the encoding; the BOM is removed. */
export function decodeText(
  bytes: Buffer,
  preferredEncodings: EncodingPreference = systemEncodingPreference,
): DecodedText {
  const bom = detectBom(bytes);
  let text: string;
  let encoding: string;
  if (bom) {
    encoding = bom;
    text = iconv().decode(bytes.subarray(bom === 'utf-8' ? 3 : 2), bom);
  } else if (isUtf8(bytes)) {
    encoding = 'utf-8';
    text = bytes.toString('utf8');
  } else {
    const preference =
      typeof preferredEncodings === 'function' ? preferredEncodings() : preferredEncodings;
    encoding = detectLegacyEncoding(bytes, preference);
    text = iconv().decode(bytes, encoding);
  }
  return { text, encoding, bom: bom !== null, lineEnding: detectLineEnding(text) };
}

/** Encodes text the way `decodeText` found it, BOM included. */
export function encodeText(text: string, format: Pick<DecodedText, 'encoding' | 'bom'>): Buffer {
  const body =
    format.encoding === 'utf-8' ? Buffer.from(text, 'utf8') : iconv().encode(text, format.encoding);
  if (!format.bom) return body;
  const bom =
    format.encoding === 'utf-16le'
      ? Buffer.from([0xff, 0xfe])
      : format.encoding === 'utf-16be'
        ? Buffer.from([0xfe, 0xff])
        : Buffer.from([0xef, 0xbb, 0xbf]);
  return Buffer.concat([bom, body]);
}

export function detectLineEnding(text: string): '\n' | '\r\n' {
  if (!text.includes('\r')) return '\n';
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

let systemPreference: string[] | undefined;
/** The locale's legacy encodings, for callers without settings (command output). */
function systemEncodingPreference(): string[] {
  systemPreference ??= legacyEncodingPreference(undefined);
  return systemPreference;
}

/** A size for people: `12.3 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
