/**
 * Commands people write themselves, in `.toolhost/commands/`, `.qwen/commands/`,
 * `.gemini/commands/` or `.claude/commands/`, in the project or the home folder, and the
 * enabled extensions' `commands/` folders (an extension's command whose name is taken is
 * renamed `<extension>.<name>`, as Gemini CLI does). The file's path names the command
 * (`git/commit.md` is `/git:commit`). A Markdown file's optional YAML front matter gives
 * `description` and `argument-hint` and its body is the prompt; a TOML file (Gemini CLI's
 * and Qwen Code's format) gives `prompt` and an optional `description`; the terminal's
 * command-body.ts expands the prompt's placeholders. A project's command wins over the
 * person's of the same name; a file that cannot be used is a warning naming it and what is
 * wrong, never a failure. This file reads and names them; the terminal makes them slash
 * commands (ui/commands/user-commands.ts), `toolhost mcp` offers them as prompts and
 * stream-json's init lists their names (command-names.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@toolhost/core/config';
import { leadsOutside, USER_COMMAND_FOLDERS } from '@toolhost/core/config';
import { readFrontMatterFile } from '@toolhost/core/files';
import { parse as parseToml, TomlError } from 'smol-toml';

const FOLDERS = USER_COMMAND_FOLDERS;
const EXTENSION = /\.(md|toml)$/i;
/** Deeper nesting than this is most likely a mistake (a linked loop, a vendored tree). */
const MAX_DEPTH = 4;
const SEGMENT = /^[\p{L}\p{N}_.-]+$/u;

/** A command file that can be used, with the name it is typed by. */
export interface UserCommandFile extends CommandFile {
  name: string;
  file: string;
  source: CommandFolder['source'];
}

export interface UserCommandFiles {
  commands: UserCommandFile[];
  warnings: string[];
}

export interface CommandFolder {
  dir: string;
  source: 'project' | 'user' | 'extension';
  /** For a project's or an extension's folder: its real root, which its files must not lead out of. */
  root?: string;
  /** For an extension's folder: the extension's name (a command it loses is renamed `<name>.<command>`). */
  extension?: string;
}

/**
 * Project folders first, then the person's, then the enabled extensions' (by name): the
 * first command of a name wins.
 */
export function userCommandFolders(config: Config): CommandFolder[] {
  const home = path.dirname(config.userDir);
  const project = FOLDERS.map((folder) => ({
    dir: path.join(config.targetDir, folder),
    source: 'project' as const,
    root: config.targetDir,
  }));
  const extensions = config.extensions.flatMap((extension) =>
    extension.contributions.commandFolders.map((dir) => ({
      dir,
      source: 'extension' as const,
      root: extension.root,
      extension: extension.name,
    })),
  );
  // A project in the home folder itself would list the same folders twice.
  if (path.resolve(home) === path.resolve(config.targetDir)) return [...project, ...extensions];
  return [
    ...project,
    ...FOLDERS.map((folder) => ({ dir: path.join(home, folder), source: 'user' as const })),
    ...extensions,
  ];
}

/** The usable command files by name (the first of a name wins), and warnings for the others. */
export function readUserCommandFiles(
  folders: readonly CommandFolder[],
  reservedNames: ReadonlySet<string> = new Set(),
): UserCommandFiles {
  const warnings: string[] = [];
  const byName = new Map<string, UserCommandFile>();
  for (const folder of folders) {
    const seen = new Map<string, string>();
    for (const file of commandFiles(folder.dir, 0)) {
      const relative = path.relative(folder.dir, file).replace(EXTENSION, '');
      const segments = relative.split(path.sep);
      if (!segments.every((segment) => SEGMENT.test(segment))) {
        warnings.push(
          `${file}: a command's folder and file names may use letters, digits, ".", "-" and "_" only; the file was skipped.`,
        );
        continue;
      }
      let name = segments.join(':');
      let key = name.toLowerCase();
      if (folder.extension && (reservedNames.has(key) || byName.has(key))) {
        // Gemini CLI's rule: an extension's command that another holds is renamed after it.
        const builtIn = reservedNames.has(key);
        const holder = builtIn ? 'a built-in command' : `defined by ${byName.get(key)!.file}`;
        const why = builtIn
          ? 'built-in commands come first'
          : "the project's and your own commands come first, then extensions by name";
        const renamed = `${folder.extension}.${name}`;
        warnings.push(
          `${file}: /${name} of extension "${folder.extension}" is also ${holder}, which wins (${why}); the extension's command is /${renamed}.`,
        );
        name = renamed;
        key = name.toLowerCase();
      }
      if (reservedNames.has(key)) {
        warnings.push(`${file}: /${name} is a built-in command, so this file is not used.`);
        continue;
      }
      const twin = seen.get(key);
      if (twin) {
        warnings.push(`${file}: /${name} is also defined by ${twin}, which is used.`);
        continue;
      }
      seen.set(key, path.basename(file));
      if (byName.has(key)) continue;
      const outside = folder.root ? leadsOutside(folder.root, file) : undefined;
      if (outside) {
        const whose = folder.extension ? 'extension' : 'project';
        warnings.push(
          `${file}: leads outside the ${whose} (to ${outside}); a ${whose}'s command files are read only inside it. The command was skipped.`,
        );
        continue;
      }
      const parsed = /\.toml$/i.test(file) ? parseTomlCommandFile(file) : parseCommandFile(file);
      if (typeof parsed === 'string') {
        warnings.push(`${file}: ${parsed} The command was skipped.`);
        continue;
      }
      byName.set(key, { ...parsed, name, file, source: folder.source });
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
  const parsed = readFrontMatterFile(file, 'description, argument-hint');
  if (typeof parsed === 'string') return parsed;
  const { fields = {}, body } = parsed;
  if (!body) {
    return parsed.fields
      ? 'has no prompt after the front matter.'
      : 'is empty: write the prompt in it.';
  }
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  const hint = fields['argument-hint'] ?? fields.argumentHint;
  return {
    body,
    ...(description ? { description } : {}),
    ...(typeof hint === 'string' && hint.trim() ? { argumentHint: hint.trim() } : {}),
  };
}

/** A TOML command file: `prompt` (required) and `description`. */
export function parseTomlCommandFile(file: string): CommandFile | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return `cannot be read (${(error as Error).message}).`;
  }
  let data: Record<string, unknown>;
  try {
    data = parseToml(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '');
    return `is not valid TOML (line ${error.line}, column ${error.column}: ${reason}).`;
  }
  const { prompt, description } = data;
  if (prompt === undefined) {
    return 'has no "prompt": add prompt = """...""" with the text sent to the model.';
  }
  if (typeof prompt !== 'string') return '"prompt" must be a string (the text sent to the model).';
  if (!prompt.trim()) return '"prompt" is empty: write the text sent to the model.';
  if (description !== undefined && typeof description !== 'string') {
    return '"description" must be a string.';
  }
  return {
    body: prompt.trim(),
    ...(description?.trim() ? { description: description.trim() } : {}),
  };
}

function commandFiles(dir: string, depth: number): string[] {
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
        files.push(...commandFiles(full, depth + 1));
      }
    } else if (EXTENSION.test(entry)) {
      files.push(full);
    }
  }
  return files;
}
