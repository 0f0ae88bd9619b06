/**
 * Registers `toolhost extensions` (Qwen Code's `qwen extensions` forms): install, link,
 * list, enable, disable, update, uninstall, new, and `marketplace add|list|remove`. Each
 * loads its code only when it runs.
 */
import type { Command } from 'commander';
import type { ExtensionsIo } from './install-command.js';

const SCOPES = 'user (everywhere, the default) or workspace (this project folder only)';

export function addExtensionsCommands(
  program: Command,
  streams: {
    readonly stdin: NodeJS.ReadStream;
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    stdinIsTerminal?: () => boolean;
  },
  done: (code: number) => void,
): void {
  const io: ExtensionsIo = {
    stdout: streams.stdout,
    stderr: streams.stderr,
    // Read only when a question is asked (see index.ts).
    get stdin() {
      return streams.stdin;
    },
    stdinIsTerminal: () => streams.stdinIsTerminal?.() ?? Boolean(streams.stdin.isTTY),
    done,
  };
  const extensions = program
    .command('extensions')
    .description(
      'Install and manage Gemini CLI / Qwen Code extensions and Claude Code plugins (in ~/.toolhost/extensions).',
    );
  extensions
    .command('install')
    .description(
      'Install an extension or plugin from a folder, a git URL, an npm package (@scope/name, npm:name) or <marketplace>:<plugin>.',
    )
    .argument('<source>', 'where to install it from')
    .option('--ref <ref>', 'git: the branch, tag or commit to install')
    .option('--consent', 'install without asking (for scripts): you accept what it lists')
    .option('--scope <scope>', `where it is on: ${SCOPES}`, 'user')
    .action(async (source: string, options: { ref?: string; consent?: boolean; scope: string }) => {
      const { runInstall } = await import('./install-command.js');
      io.done(
        await runInstall({ source, ...(options.ref ? { ref: options.ref } : {}) }, options, io),
      );
    });
  extensions
    .command('link')
    .description('Use an extension from its own folder, as it changes (for developing one).')
    .argument('<folder>', 'the extension folder')
    .option('--consent', 'link without asking (for scripts)')
    .action(async (folder: string, options: { consent?: boolean }) => {
      const { runInstall } = await import('./install-command.js');
      io.done(await runInstall({ source: folder, link: true }, options, io));
    });
  extensions
    .command('list')
    .description('List the installed extensions: on or off here, where from, what each adds.')
    .option('--json', 'print them as a JSON array')
    .action(async (options: { json?: boolean }) => {
      const { runList } = await import('./manage-commands.js');
      io.done(runList(options, io));
    });
  for (const enable of [true, false]) {
    extensions
      .command(enable ? 'enable' : 'disable')
      .description(enable ? 'Turn an extension on.' : 'Turn an extension off (it stays installed).')
      .argument('<name>', 'the extension')
      .option('--scope <scope>', SCOPES, 'user')
      .action(async (name: string, options: { scope: string }) => {
        const { runEnable } = await import('./manage-commands.js');
        io.done(await runEnable(name, enable, options.scope, io));
      });
  }
  extensions
    .command('update')
    .description('Install an extension again from where it came from (or every one with --all).')
    .argument('[name]', 'the extension')
    .option('--all', 'update every installed extension')
    .option('--consent', 'update without asking (for scripts)')
    .action(async (name: string | undefined, options: { all?: boolean; consent?: boolean }) => {
      const { runUpdate } = await import('./install-command.js');
      io.done(await runUpdate(name, options, io));
    });
  extensions
    .command('uninstall')
    .description('Remove an installed extension (a linked one: only the link).')
    .argument('<name>', 'the extension')
    .action(async (name: string) => {
      const { runUninstall } = await import('./manage-commands.js');
      io.done(await runUninstall(name, io));
    });
  extensions
    .command('new')
    .description('Make a minimal Qwen Code extension in a new folder, to start from.')
    .argument('<folder>', 'the folder to create')
    .action(async (folder: string) => {
      const { runNew } = await import('./manage-commands.js');
      io.done(runNew(folder, io));
    });
  const marketplace = extensions
    .command('marketplace')
    // Qwen Code's name for the same commands.
    .alias('sources')
    .description(
      'Claude Code marketplaces: add one, then install its plugins as <marketplace>:<plugin>.',
    );
  marketplace
    .command('add')
    .description('Add a marketplace: a folder or git URL with .claude-plugin/marketplace.json.')
    .argument('<source>', 'the folder or git URL')
    .action(async (source: string) => {
      const { runMarketplaceAdd } = await import('./manage-commands.js');
      io.done(await runMarketplaceAdd(source, io));
    });
  marketplace
    .command('list')
    .description('List the added marketplaces and their plugins.')
    .action(async () => {
      const { runMarketplaceList } = await import('./manage-commands.js');
      io.done(runMarketplaceList(io));
    });
  marketplace
    .command('update')
    .description("Fetch a git marketplace's plugin list again.")
    .argument('<name>', 'the marketplace')
    .action(async (name: string) => {
      const { runMarketplaceUpdate } = await import('./manage-commands.js');
      io.done(runMarketplaceUpdate(name, io));
    });
  marketplace
    .command('remove')
    .description('Forget an added marketplace (installed plugins stay).')
    .argument('<name>', 'the marketplace')
    .action(async (name: string) => {
      const { runMarketplaceRemove } = await import('./manage-commands.js');
      io.done(await runMarketplaceRemove(name, io));
    });
}
