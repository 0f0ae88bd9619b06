/**
 * Media parts (`inlineData`, `fileData`) shaped for one API: text blobs decoded to text,
 * images converted to a format the API takes (or described), audio, video and documents
 * passed only in the formats it takes, and anything the model cannot take (see
 * modalities.ts) replaced by a short placeholder naming what was left out. File names
 * travel with the data.
 */
import type { Part } from '../contract/content.js';
import { canConvertToPng, convertToPng } from './image-convert.js';
import { type Modality, modalityOf } from './modalities.js';

/** The media formats one API takes. */
export interface MediaPolicy {
  label: string;
  images: ReadonlySet<string>;
  audio: ReadonlySet<string>;
  video: ReadonlySet<string>;
  documents: ReadonlySet<string>;
}

export type PreparedMedia =
  | {
      kind: 'image' | 'audio' | 'video' | 'document';
      mimeType: string;
      /** base64 */
      data: string;
      filename: string;
    }
  | { kind: 'text'; text: string };

export interface MediaContext {
  /** What the media belongs to, for labels: `the read_file call r1`. */
  source: string;
  /** A default file name stem when the part has none. */
  fallbackName: string;
  /** What the model takes; undefined: everything. */
  modalities?: ReadonlySet<Modality>;
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/typescript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/sql',
  'application/graphql',
  'application/ld+json',
  'image/svg+xml',
]);

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

export function isTextType(mimeType: string): boolean {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  return (
    type.startsWith('text/') ||
    TEXT_TYPES.has(type) ||
    type.endsWith('+json') ||
    type.endsWith('+xml')
  );
}

/** One media part for the API, or undefined for a part without media. */
export function prepareMedia(
  part: Part,
  policy: MediaPolicy,
  context: MediaContext,
): PreparedMedia | undefined {
  if (part.fileData?.fileUri) {
    const type = part.fileData.mimeType ? ` (${part.fileData.mimeType})` : '';
    return { kind: 'text', text: `File from ${context.source}: ${part.fileData.fileUri}${type}` };
  }
  const blob = part.inlineData;
  if (!blob?.data) return undefined;
  const mimeType = (blob.mimeType ?? 'application/octet-stream')
    .toLowerCase()
    .split(';')[0]!
    .trim();
  const filename = blob.displayName ?? `${context.fallbackName}.${extensionOf(mimeType)}`;
  const size = describeSize(blob.data);

  if (isTextType(mimeType)) {
    const text = Buffer.from(blob.data, 'base64').toString('utf8');
    if (!text.includes('\uFFFD')) {
      return {
        kind: 'text',
        text: `File ${filename} (${mimeType}) from ${context.source}:\n${text}`,
      };
    }
  }
  const modality = modalityOf(mimeType);
  const noun = NOUNS[modality];
  if (context.modalities && !context.modalities.has(modality)) {
    return {
      kind: 'text',
      text: `[${noun.one} ${filename} (${mimeType}, ${size}) from ${context.source} was left out: this model does not take ${noun.many}.]`,
    };
  }
  const leftOut = (why: string): PreparedMedia => ({
    kind: 'text',
    text: `[${noun.one} ${filename} (${mimeType}, ${size}) from ${context.source} was left out: ${why}]`,
  });
  switch (modality) {
    case 'image': {
      if (policy.images.has(mimeType))
        return { kind: 'image', mimeType, data: blob.data, filename };
      if (canConvertToPng(mimeType) && policy.images.has('image/png')) {
        const png = convertToPng(mimeType, blob.data);
        if (png) {
          return {
            kind: 'image',
            mimeType: 'image/png',
            data: png,
            filename: `${stem(filename)}.png`,
          };
        }
        return leftOut('it could not be decoded.');
      }
      return leftOut(
        `${policy.label} does not take ${mimeType} images (it takes ${list(policy.images)}).`,
      );
    }
    case 'audio':
      if (policy.audio.has(mimeType)) return { kind: 'audio', mimeType, data: blob.data, filename };
      return leftOut(
        policy.audio.size > 0
          ? `${policy.label} takes audio only as ${list(policy.audio)}.`
          : `${policy.label} does not take audio in tool results.`,
      );
    case 'video':
      if (policy.video.has(mimeType)) return { kind: 'video', mimeType, data: blob.data, filename };
      return leftOut(`${policy.label} does not take ${mimeType} video in tool results.`);
    default:
      if (policy.documents.has(mimeType))
        return { kind: 'document', mimeType, data: blob.data, filename };
      return leftOut(`${policy.label} does not take ${mimeType} files in tool results.`);
  }
}

const NOUNS: Record<Modality, { one: string; many: string }> = {
  image: { one: 'Image', many: 'images' },
  audio: { one: 'Audio', many: 'audio' },
  video: { one: 'Video', many: 'video' },
  pdf: { one: 'PDF', many: 'PDF documents' },
  text: { one: 'File', many: 'files of this type' },
};

function extensionOf(mimeType: string): string {
  return EXTENSIONS[mimeType] ?? (mimeType.split('/')[1]?.replace(/[^a-z0-9]+/g, '') || 'bin');
}

function stem(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(0, dot) : filename;
}

function list(types: ReadonlySet<string>): string {
  return [...types].join(', ');
}

function describeSize(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export type PreparedFile = Exclude<PreparedMedia, { kind: 'text' }>;

/**
 * All media of one call for the API: the files it can send, and the notes (decoded text,
 * placeholders, references) that belong in the call's text.
 */
export function prepareCallMedia(
  call: { name: string; callId: string; media: Part[] },
  policy: MediaPolicy,
  modalities: ReadonlySet<Modality> | undefined,
): { source: string; files: PreparedFile[]; notes: string[] } {
  const source = `the ${call.name} call ${call.callId}`;
  const files: PreparedFile[] = [];
  const notes: string[] = [];
  for (const [index, part] of call.media.entries()) {
    const media = prepareMedia(part, policy, {
      source,
      fallbackName: `${call.name}-${index + 1}`,
      modalities,
    });
    if (media?.kind === 'text') notes.push(media.text);
    else if (media) files.push(media);
  }
  return { source, files, notes };
}
