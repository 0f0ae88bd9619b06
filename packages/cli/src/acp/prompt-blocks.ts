/**
 * An ACP prompt (text, images, links to files, resources the editor embedded) as the text
 * and parts the agent loop takes. A link to a local file becomes an `@` reference, so it
 * is read as the terminal reads one (read_many_files: ignore rules, limits, the workspace
 * policy); embedded text is added below the person's words; images and other binary
 * resources become media parts for the model.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { escapePath } from '@toolhost/core/conversation';
import type { Part } from '@toolhost/core/tools';

export interface PromptFromBlocks {
  /** The person's words, with `@` references for linked files. */
  text: string;
  /** Embedded resources' text, each in a marked section, for below the words. */
  sections: string[];
  /** Images and binary resources, in the order they came. */
  media: Part[];
}

/** `cwd`: the project root, against which linked files inside it are named. */
export function promptFromBlocks(blocks: readonly ContentBlock[], cwd: string): PromptFromBlocks {
  let text = '';
  const sections: string[] = [];
  const media: Part[] = [];
  const addWords = (words: string) => {
    // Blocks are pieces of one message: a link between two words keeps spaces around it.
    text += text && !/\s$/.test(text) && !/^\s/.test(words) ? ` ${words}` : words;
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        addWords(block.text);
        break;
      case 'image':
      case 'audio':
        media.push({ inlineData: { mimeType: block.mimeType, data: block.data } });
        break;
      case 'resource_link': {
        const file = localPath(block.uri);
        addWords(
          file
            ? `@${escapePath(shortPath(file, cwd))}`
            : `[${block.title ?? block.name}](${block.uri})`,
        );
        break;
      }
      case 'resource': {
        const { resource } = block;
        if ('text' in resource) {
          sections.push(
            `--- Content from ${resource.uri} ---\n${resource.text}\n--- End of content ---`,
          );
        } else {
          media.push({
            inlineData: {
              mimeType: resource.mimeType ?? 'application/octet-stream',
              data: resource.blob,
            },
          });
        }
        break;
      }
    }
  }
  return { text, sections, media };
}

/** Inside the project: relative, as a person would type it. */
function shortPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function localPath(uri: string): string | undefined {
  if (uri.startsWith('/')) return uri;
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
