/**
 * /extensions: the installed extensions (on or off here, what each adds), and turning one
 * on or off (`enable|disable <name> [--scope workspace]`). A change applies from the next
 * session: this one keeps the servers, hooks and prompts it started with.
 */
import { loadExtensions, setEnablement } from '@toolhost/core/extensions';
import type { CommandContext, SlashCommand } from '../command-types.js';

function listExtensions(context: CommandContext): void {
  const { config } = context;
  const loaded = loadExtensions(config.userDir, config.targetDir);
  if (loaded.all.length === 0) {
    context.print(
      'No extensions are installed. Install one from a shell: `toolhost extensions install <folder|git URL|@scope/package|marketplace:plugin>`.',
    );
    return;
  }
  const running = new Set(config.extensions.map((extension) => extension.name));
  const lines = loaded.all.map((extension) => {
    const state = extension.enabled ? 'on' : 'off';
    const now = running.has(extension.name) ? 'in this session' : 'not in this session';
    const what = extension.manifest
      ? `${extension.manifest.version}, ${extension.manifest.format}`
      : `cannot be used: ${extension.problem}`;
    return `- **${extension.name}** (${what}): ${state}, ${now}\n  ${extension.root}`;
  });
  context.print(
    `${lines.join('\n')}\n\n\`/extensions enable|disable <name> [--scope workspace]\`; \`toolhost extensions list\` shows what each adds.`,
  );
}

export const extensionsCommand: SlashCommand = {
  name: 'extensions',
  description: 'List the installed extensions, or turn one on or off',
  argumentHint: '[list | enable <name> | disable <name>] [--scope workspace]',
  source: 'built-in',
  takesArguments: true,
  async run(context, args) {
    const words = args.trim().split(/\s+/).filter(Boolean);
    const workspace = words.includes('--scope=workspace') || /--scope\s+workspace/.test(args);
    const [action, name] = words.filter(
      (word) => !word.startsWith('--') && word !== 'workspace' && word !== 'user',
    );
    if (!action || action === 'list') {
      listExtensions(context);
      return;
    }
    if ((action !== 'enable' && action !== 'disable') || !name) {
      context.print(
        'Use `/extensions`, `/extensions enable <name>` or `/extensions disable <name>` (add `--scope workspace` for this project only).',
        'error',
      );
      return;
    }
    const { config } = context;
    const installed = loadExtensions(config.userDir, config.targetDir).all.map((each) => each.name);
    if (!installed.includes(name)) {
      context.print(
        `No extension "${name}" is installed; installed: ${installed.join(', ') || 'none'}.`,
        'error',
      );
      return;
    }
    const enable = action === 'enable';
    await setEnablement(
      config.userDir,
      name,
      enable,
      workspace ? 'workspace' : 'user',
      config.targetDir,
    );
    context.print(
      `Extension **${name}** is ${enable ? 'on' : 'off'} ${workspace ? 'in this project' : 'everywhere'} from the next session (restart toolhost to apply it here).`,
    );
  },
  completeArguments: (context, args) => {
    const words = args.split(/\s+/);
    if (words.length <= 1)
      return ['list', 'enable', 'disable']
        .filter((action) => action.startsWith(words[0] ?? ''))
        .map((value) => ({ value }));
    const names = loadExtensions(context.config.userDir, context.config.targetDir).all;
    return names
      .filter((each) => each.name.startsWith(words[1] ?? ''))
      .map((each) => ({
        value: each.name,
        description: each.enabled ? 'on' : 'off',
      }));
  },
};
