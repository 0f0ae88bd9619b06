/**
 * `toolhost extensions install | link | update`: fetch the extension, show the person what
 * it adds (every program it runs, every prompt it brings), ask for a yes on a terminal
 * (`--consent` for scripts; without a terminal and without it, nothing is installed), ask
 * for its declared settings, then put it in place.
 */
import { createInterface } from 'node:readline/promises';
import { userSettingsDir } from '@toolhost/core/config';
import {
  commitInstall,
  ExtensionSourceError,
  type InstallRequest,
  loadExtensions,
  type PreparedInstall,
  prepareInstall,
  setEnablement,
  shownSource,
  updateRequest,
} from '@toolhost/core/extensions';
import { visibleText } from '@toolhost/core/utils';
import { ExitCode } from '../../errors.js';

export interface ExtensionsIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  stdinIsTerminal: () => boolean;
  done: (code: number) => void;
}

const FORMATS = {
  qwen: 'Qwen Code extension',
  gemini: 'Gemini CLI extension',
  claude: 'Claude Code plugin',
} as const;

export async function runInstall(
  request: InstallRequest,
  options: { consent?: boolean; scope?: string },
  io: ExtensionsIo,
  updating = false,
): Promise<number> {
  const userDir = userSettingsDir();
  // Qwen Code's `project` is accepted for `workspace`.
  const scope = options.scope === 'project' ? 'workspace' : (options.scope ?? 'user');
  if (scope !== 'user' && scope !== 'workspace') {
    io.stderr.write(`toolhost: --scope must be user or workspace; got "${options.scope}".\n`);
    return ExitCode.Usage;
  }
  let prepared: PreparedInstall;
  try {
    prepared = prepareInstall(userDir, process.cwd(), request);
  } catch (error) {
    if (!(error instanceof ExtensionSourceError)) throw error;
    io.stderr.write(`toolhost: nothing was installed: ${visibleText(error.message)}\n`);
    return ExitCode.Failed;
  }
  try {
    if (prepared.installed && !updating) {
      io.stderr.write(
        `toolhost: an extension named "${prepared.name}" is installed already; "toolhost extensions update ${prepared.name}" installs it again, or uninstall it first.\n`,
      );
      return ExitCode.Failed;
    }
    describe(prepared, request, io);
    if (
      !(await consented(
        prepared,
        options,
        io,
        updating ? 'update' : request.link ? 'link' : 'install',
      ))
    )
      return ExitCode.NeedsConfirmation;
    const settings = await askSettings(prepared, options, io);
    const folder = await commitInstall(userDir, prepared, settings);
    if (scope === 'workspace' && !updating) {
      // On here only: off for the person, on for this folder.
      await setEnablement(userDir, prepared.name, false, 'user', process.cwd());
      await setEnablement(userDir, prepared.name, true, 'workspace', process.cwd());
    }
    const verb = updating ? 'updated' : request.link ? 'linked' : 'installed';
    const where = scope === 'workspace' && !updating ? ` in ${process.cwd()} only` : '';
    io.stdout.write(
      `Extension "${prepared.name}" ${verb} (${folder}); it is on${where}, from the next session. "toolhost extensions disable ${prepared.name}" turns it off.\n`,
    );
    return ExitCode.Success;
  } finally {
    prepared.cleanup();
  }
}

function describe(prepared: PreparedInstall, request: InstallRequest, io: ExtensionsIo): void {
  const { manifest } = prepared;
  const lines = [
    `${FORMATS[manifest.format]} "${manifest.name}" ${manifest.version} from ${shownSource(request.source)}${request.ref ? ` (${request.ref})` : ''}${manifest.description ? `: ${manifest.description}` : ''}`,
    prepared.summary.length > 0 ? 'It adds:' : 'It adds nothing toolhost uses.',
    ...prepared.summary.map((line) => `  - ${line}`),
    ...prepared.warnings.map((warning) => `  warning: ${warning}`),
  ];
  // A manifest's names and commands may hold control characters: shown escaped.
  io.stderr.write(`${lines.map((line) => visibleText(line)).join('\n')}\n`);
}

async function consented(
  prepared: PreparedInstall,
  options: { consent?: boolean },
  io: ExtensionsIo,
  verb: string,
): Promise<boolean> {
  if (options.consent) return true;
  if (!io.stdinIsTerminal()) {
    io.stderr.write(
      `toolhost: "${prepared.name}" was not ${verb === 'link' ? 'linked' : `${verb}ed`}: its servers and hooks run as you and its text reaches the model, so toolhost asks first, and standard input is not a terminal. Pass --consent to ${verb} it without asking.\n`,
    );
    return false;
  }
  const answer = await ask(
    io,
    'Its programs run with your permissions and its text reaches the model; install only what you trust. Go ahead? [y/N] ',
  );
  if (/^y(es)?$/i.test(answer.trim())) return true;
  io.stderr.write(
    `toolhost: "${prepared.name}" was not ${verb === 'link' ? 'linked' : `${verb}ed`}.\n`,
  );
  return false;
}

/** Answers to the extension's declared settings: asked on a terminal, else the environment's. */
async function askSettings(
  prepared: PreparedInstall,
  _options: { consent?: boolean },
  io: ExtensionsIo,
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const setting of prepared.manifest.settings) {
    const fromEnvironment = process.env[setting.envVar];
    if (fromEnvironment !== undefined) {
      values[setting.envVar] = fromEnvironment;
      continue;
    }
    if (!io.stdinIsTerminal()) {
      io.stderr.write(
        `toolhost: warning: setting "${setting.name}" was not given; set ${setting.envVar} in the environment when installing, or write it in the extension's .env.\n`,
      );
      continue;
    }
    values[setting.envVar] = (
      await ask(io, `${setting.name}${setting.description ? ` (${setting.description})` : ''}: `)
    ).trim();
  }
  return values;
}

async function ask(io: ExtensionsIo, question: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(question);
    const line = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    return line;
  } finally {
    rl.close();
  }
}

export async function runUpdate(
  name: string | undefined,
  options: { all?: boolean; consent?: boolean },
  io: ExtensionsIo,
): Promise<number> {
  const userDir = userSettingsDir();
  const names = options.all
    ? loadExtensions(userDir, process.cwd()).all.map((extension) => extension.name)
    : name
      ? [name]
      : [];
  if (names.length === 0) {
    io.stderr.write(
      options.all
        ? 'toolhost: no extensions are installed.\n'
        : 'toolhost: name the extension to update, or pass --all.\n',
    );
    return options.all ? ExitCode.Success : ExitCode.Usage;
  }
  let code: number = ExitCode.Success;
  for (const each of names) {
    const request = updateRequest(userDir, each);
    if (!request) {
      io.stdout.write(
        `Extension "${each}" is ${name === each || !options.all ? 'linked or not installed' : 'linked'}: nothing to update.\n`,
      );
      continue;
    }
    const result = await runInstall(request, options, io, true);
    if (result !== ExitCode.Success) code = result;
  }
  return code;
}
