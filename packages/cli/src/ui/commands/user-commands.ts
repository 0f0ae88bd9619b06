/**
 * Commands people write themselves: Markdown files in `.toolhost/commands/`,
 * `.qwen/commands/` or `.claude/commands/`, in the project or the home folder. The file's
 * path names the command (`git/commit.md` is `/git:commit`); its optional YAML front
 * matter gives `description` and `argument-hint`; its body is the prompt sent to the
 * model (see command-body.ts for its placeholders). A project's command wins over the
 * person's of the same name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@toolhost/core';
import { parse as parseYaml } from 'yaml';
import { renderCommandBody, usesArguments } from './command-body.js';
import type { CommandSource, SlashCommand } from './command-types.js';

const FOLDERS = ['.toolhost/commands', '.qwen/commands', '.claude/commands'];
/** Deeper nesting than this is most likely a mistake (a linked loop, a vendored tree). */
const MAX_DEPTH = 4;
const SEGMENT = /^[\p{L}\p{N}_.-]+$/u;

export interface LoadedUserCommands {
  commands: SlashCommand[];
  warnings: string[];
}

export interface CommandFolder {
  dir: string;
  source: Extract<CommandSource, 'project' | 'user'>;
}

/** Project folders first, then the person's: the first command of a name wins. */
export function userCommandFolders(config: Config): CommandFolder[] {
  const home = path.dirname(config.userDir);
  const project = FOLDERS.map((folder) => ({
    dir: path.join(config.targetDir, folder),
    source: 'project' as const,
  }));
  // A project in the home folder itself would list the same folders twice.
  if (path.resolve(home) === path.resolve(config.targetDir)) return project;
  return [
    ...project,
    ...FOLDERS.map((folder) => ({ dir: path.join(home, folder), source: 'user' as const })),
  ];
}

export function loadUserCommands(
  folders: readonly CommandFolder[],
  reservedNames: ReadonlySet<string> = new Set(),
): LoadedUserCommands {
  const warnings: string[] = [];
  const byName = new Map<string, SlashCommand>();
  for (const folder of folders) {
    for (const file of markdownFiles(folder.dir, 0)) {
      const relative = path.relative(folder.dir, file).replace(/\.md$/i, '');
      const segments = relative.split(path.sep);
      if (!segments.every((segment) => SEGMENT.test(segment))) {
        warnings.push(
          `${file}: a command's folder and file names may use letters, digits, ".", "-" and "_" only; the file was skipped.`,
        );
        continue;
      }
      const name = segments.join(':');
      const key = name.toLowerCase();
      if (reservedNames.has(key)) {
        warnings.push(`${file}: /${name} is a built-in command, so this file is not used.`);
        continue;
      }
      if (byName.has(key)) continue;
      const parsed = parseCommandFile(file);
      if (typeof parsed === 'string') {
        warnings.push(`${file}: ${parsed} The command was skipped.`);
        continue;
      }
      byName.set(key, userCommand(name, file, folder.source, parsed));
    }
  }
  return { commands: [...byName.values()], warnings };
}

export interface CommandFile {
  description?: string;
  argumentHint?: string;
  body: string;
}

export function parseCommandFile(file: string): CommandFile | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return `cannot be read (${(error as Error).message}).`;
  }
  const match = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match) {
    return text.trim() ? { body: text.trim() } : 'is empty: write the prompt in it.';
  }
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '') ?? {};
  } catch (error) {
    return `its front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return 'its front matter must be a set of fields such as description.';
  }
  const fields = data as Record<string, unknown>;
  const body = (match[2] ?? '').trim();
  if (!body) return 'has no prompt after the front matter.';
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  const hint = fields['argument-hint'] ?? fields.argumentHint;
  return {
    body,
    ...(description ? { description } : {}),
    ...(typeof hint === 'string' && hint.trim() ? { argumentHint: hint.trim() } : {}),
  };
}

function userCommand(
  name: string,
  file: string,
  source: 'project' | 'user',
  parsed: CommandFile,
): SlashCommand {
  return {
    name,
    description: parsed.description ?? firstLine(parsed.body),
    ...(parsed.argumentHint ? { argumentHint: parsed.argumentHint } : {}),
    source,
    file,
    takesArguments: usesArguments(parsed.body) || Boolean(parsed.argumentHint),
    async run(context, args) {
      const rendered = await renderCommandBody(parsed.body, args, context.runTool, context.signal);
      if ('error' in rendered) context.print(rendered.error, 'error');
      else context.submitPrompt(rendered.prompt);
    },
  };
}

function firstLine(body: string): string {
  const line = body.split('\n').find((candidate) => candidate.trim()) ?? '';
  const clean = line.replace(/^#+\s*/, '').trim();
  return clean.length > 70 ? `${clean.slice(0, 69)}…` : clean;
}

function markdownFiles(dir: string, depth: number): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(full).isDirectory();
    } catch {
      continue; // a dangling link
    }
    if (isDirectory) {
      if (depth < MAX_DEPTH && !entry.startsWith('.')) {
        files.push(...markdownFiles(full, depth + 1));
      }
    } else if (entry.toLowerCase().endsWith('.md')) {
      files.push(full);
    }
  }
  return files;
}
