/** `toolhost extensions list | enable | disable | uninstall | new | marketplace ...`. */
import { userSettingsDir } from '@toolhost/core/config';
import {
  addedMarketplaces,
  addMarketplace,
  describeContributions,
  EXTENSION_NAME,
  ExtensionSourceError,
  type InstalledExtension,
  loadExtensions,
  newExtension,
  openMarketplace,
  readInstalled,
  readMarketplace,
  removeMarketplace,
  setEnablement,
  shownSource,
  uninstallExtension,
} from '@toolhost/core/extensions';
import { visibleText } from '@toolhost/core/utils';
import { ExitCode } from '../../errors.js';
import type { ExtensionsIo } from './install-command.js';

export function runList(options: { json?: boolean }, io: ExtensionsIo): number {
  const loaded = loadExtensions(userSettingsDir(), process.cwd());
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify(
        loaded.all.map((extension) => ({
          name: extension.name,
          version: extension.manifest?.version,
          format: extension.manifest?.format,
          enabled: extension.enabled,
          enabledBy: extension.enabledBy,
          path: extension.root,
          ...(extension.metadata
            ? { install: { ...extension.metadata, source: shownSource(extension.metadata.source) } }
            : {}),
          ...(extension.problem ? { problem: extension.problem } : {}),
        })),
        null,
        2,
      )}\n`,
    );
    return ExitCode.Success;
  }
  if (loaded.all.length === 0) {
    io.stdout.write(
      'No extensions are installed. "toolhost extensions install <folder|git URL|@scope/package|marketplace:plugin>" installs one.\n',
    );
    return ExitCode.Success;
  }
  const lines: string[] = [];
  for (const extension of loaded.all) {
    lines.push(
      ...describeInstalled(
        extension,
        loaded.active.find((a) => a.name === extension.name),
      ),
    );
  }
  for (const warning of loaded.warnings) lines.push(`warning: ${warning}`);
  io.stdout.write(`${lines.map((line) => visibleText(line)).join('\n')}\n`);
  return ExitCode.Success;
}

export function describeInstalled(
  extension: InstalledExtension,
  active?: { contributions: Parameters<typeof describeContributions>[1] },
): string[] {
  const state = extension.enabled
    ? 'on'
    : `off${extension.enabledBy === 'workspace' ? ' in this workspace' : ''}`;
  const manifest = extension.manifest;
  const from = extension.metadata
    ? `${extension.metadata.type} ${shownSource(extension.metadata.source)}${extension.metadata.ref ? ` (${extension.metadata.ref})` : ''}, ${extension.metadata.installedAt ?? ''}`
    : 'no install record';
  const lines = [
    `${extension.name} ${manifest?.version ?? ''} [${state}]${manifest ? ` (${manifest.format})` : ''}`,
    `  from: ${from}`,
    `  path: ${extension.root}`,
  ];
  if (extension.problem) lines.push(`  cannot be used: ${extension.problem}`);
  if (manifest && active)
    lines.push(...describeContributions(manifest, active.contributions).map((line) => `  ${line}`));
  return lines;
}

export async function runEnable(
  name: string,
  enable: boolean,
  scope: string,
  io: ExtensionsIo,
): Promise<number> {
  if (scope !== 'user' && scope !== 'workspace') {
    io.stderr.write(`toolhost: --scope must be user or workspace; got "${scope}".\n`);
    return ExitCode.Usage;
  }
  const userDir = userSettingsDir();
  const installed = installedNamed(name, io);
  if (!installed) return ExitCode.Failed;
  await setEnablement(userDir, name, enable, scope, process.cwd());
  io.stdout.write(
    `Extension "${name}" is ${enable ? 'on' : 'off'} ${scope === 'workspace' ? `in ${process.cwd()}` : 'everywhere'} from the next session.\n`,
  );
  return ExitCode.Success;
}

function installedNamed(name: string, io: ExtensionsIo): InstalledExtension | undefined {
  const names = loadExtensions(userSettingsDir(), process.cwd()).all.map((each) => each.name);
  if (EXTENSION_NAME.test(name) && names.includes(name))
    return readInstalled(userSettingsDir(), name, process.cwd());
  io.stderr.write(
    `toolhost: no extension "${visibleText(name)}" is installed; installed: ${names.join(', ') || 'none'}.\n`,
  );
  return undefined;
}

export async function runUninstall(name: string, io: ExtensionsIo): Promise<number> {
  if (!installedNamed(name, io)) return ExitCode.Failed;
  await uninstallExtension(userSettingsDir(), name);
  io.stdout.write(`Extension "${name}" uninstalled.\n`);
  return ExitCode.Success;
}

export function runNew(folder: string, io: ExtensionsIo): number {
  try {
    const files = newExtension(folder);
    io.stdout.write(
      `Made ${files.join(', ')} in ${folder}. Try it with "toolhost extensions link ${folder}".\n`,
    );
    return ExitCode.Success;
  } catch (error) {
    if (!(error instanceof ExtensionSourceError)) throw error;
    io.stderr.write(`toolhost: ${error.message}\n`);
    return ExitCode.Failed;
  }
}

export async function runMarketplaceAdd(source: string, io: ExtensionsIo): Promise<number> {
  try {
    const added = await addMarketplace(userSettingsDir(), source);
    const { plugins } = readMarketplace(added.dir);
    io.stdout.write(
      `Marketplace "${added.name}" added, with ${plugins.length} plugin(s): ${plugins.map((plugin) => plugin.name).join(', ')}. Install one with "toolhost extensions install ${added.name}:<plugin>".\n`,
    );
    return ExitCode.Success;
  } catch (error) {
    if (!(error instanceof ExtensionSourceError)) throw error;
    io.stderr.write(`toolhost: the marketplace was not added: ${visibleText(error.message)}\n`);
    return ExitCode.Failed;
  }
}

export function runMarketplaceList(io: ExtensionsIo): number {
  const list = addedMarketplaces(userSettingsDir());
  if (list.length === 0) {
    io.stdout.write(
      'No marketplaces are added. "toolhost extensions marketplace add <folder|git URL>" adds one.\n',
    );
    return ExitCode.Success;
  }
  const lines = list.flatMap((entry) => {
    let plugins: string;
    try {
      plugins = readMarketplace(entry.dir)
        .plugins.map(
          (plugin) => `    ${plugin.name}${plugin.description ? `: ${plugin.description}` : ''}`,
        )
        .join('\n');
    } catch (error) {
      plugins = `    cannot be read: ${(error as Error).message}`;
    }
    return [`${entry.name} (${entry.type} ${shownSource(entry.source)})`, plugins];
  });
  io.stdout.write(`${lines.map((line) => visibleText(line, { multiline: true })).join('\n')}\n`);
  return ExitCode.Success;
}

export function runMarketplaceUpdate(name: string, io: ExtensionsIo): number {
  try {
    const added = addedMarketplaces(userSettingsDir()).some((entry) => entry.name === name);
    const opened = added ? openMarketplace(userSettingsDir(), name, true) : undefined;
    if (!opened) {
      io.stderr.write(`toolhost: no marketplace "${visibleText(name)}" was added.\n`);
      return ExitCode.Failed;
    }
    io.stdout.write(
      `Marketplace "${name}" is up to date, with ${opened.plugins.length} plugin(s): ${opened.plugins.map((plugin) => plugin.name).join(', ')}.\n`,
    );
    return ExitCode.Success;
  } catch (error) {
    if (!(error instanceof ExtensionSourceError)) throw error;
    io.stderr.write(`toolhost: the marketplace was not updated: ${visibleText(error.message)}\n`);
    return ExitCode.Failed;
  }
}

export async function runMarketplaceRemove(name: string, io: ExtensionsIo): Promise<number> {
  if (await removeMarketplace(userSettingsDir(), name)) {
    io.stdout.write(`Marketplace "${name}" removed; plugins installed from it stay.\n`);
    return ExitCode.Success;
  }
  io.stderr.write(`toolhost: no marketplace "${visibleText(name)}" was added.\n`);
  return ExitCode.Failed;
}
