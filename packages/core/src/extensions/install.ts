/**
 * Installing, updating, linking and removing extensions. An install happens in two steps
 * so the person can see what they get before anything is in place: prepareInstall fetches
 * the files into a staging folder (refusing links that lead out) and reads what they add;
 * commitInstall moves them to ~/.toolhost/extensions/<name> with the install record and
 * the answers to the extension's settings. A linked extension keeps its files where they are.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeOwnFile } from '../utils/own-files.js';
import { isWithin } from '../workspace/workspace-context.js';
import { contributionsOf, describeContributions, readEnvFile } from './contributions.js';
import { forgetEnablement } from './enablement.js';
import { extensionsDir, INSTALL_METADATA_FILE, SETTINGS_ENV_FILE } from './extension-files.js';
import { type InstallMetadata, readInstallMetadata } from './extensions.js';
import { type ExtensionManifest, readManifest } from './manifest.js';
import { addedMarketplaces, MARKETPLACE_FILE, openMarketplace } from './marketplace.js';
import {
  cloneGit,
  copyExtensionFolder,
  ExtensionSourceError,
  isGitUrl,
  moveFolder,
  packNpm,
  tempFolder,
} from './sources.js';

export { ExtensionSourceError } from './sources.js';

export interface PreparedInstall {
  name: string;
  manifest: ExtensionManifest;
  /** What it adds, one line each, for the person to read before saying yes. */
  summary: string[];
  warnings: string[];
  metadata: Omit<InstallMetadata, 'installedAt'>;
  /** The folder of files to install (for a link: the person's own folder). */
  files: string;
  /** Whether an extension of that name is installed already. */
  installed: boolean;
  /** Removes the staging folder (call it whatever happens). */
  cleanup(): void;
}

export interface InstallRequest {
  source: string;
  ref?: string;
  /** Link the folder instead of copying it (`toolhost extensions link`). */
  link?: boolean;
}

/** Fetches and reads an extension without installing it. */
export function prepareInstall(
  userDir: string,
  workspaceRoot: string,
  request: InstallRequest,
): PreparedInstall {
  const temporary: string[] = [];
  const cleanup = () => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { from, metadata } = locate(userDir, request, temporary);
    let files = from;
    if (!request.link) {
      const staging = tempFolder('extension');
      temporary.push(staging);
      files = path.join(staging, 'files');
      try {
        copyExtensionFolder(from, files);
      } catch (error) {
        if (error instanceof ExtensionSourceError)
          throw new ExtensionSourceError(`${request.source}: ${error.message}`);
        throw error;
      }
    }
    const warnings: string[] = [];
    const manifest = readManifest(files, warnings);
    if (typeof manifest === 'string') {
      const marketplace = existsSync(path.join(from, MARKETPLACE_FILE));
      throw new ExtensionSourceError(
        marketplace
          ? `${request.source} is a marketplace, not a plugin: add it with "toolhost extensions marketplace add ${request.source}", or install one of its plugins with "toolhost extensions install ${request.source}:<plugin>".`
          : manifest,
      );
    }
    const target = request.link
      ? realpathSync(files)
      : path.join(extensionsDir(userDir), manifest.name);
    // The summary names the folder the files will be in once installed, and lists what
    // the fetched folders hold.
    const staged = contributionsOf(files, manifest, workspaceRoot, warnings);
    const installed = contributionsOf(target, manifest, workspaceRoot, []);
    const summary = describeContributions(manifest, {
      ...staged,
      mcpServers: installed.mcpServers,
      hooks: installed.hooks,
      contextFiles: staged.contextFiles.map((file) =>
        path.join(target, path.relative(files, file)),
      ),
    });
    return {
      name: manifest.name,
      manifest,
      summary,
      warnings,
      metadata,
      files,
      installed: existsSync(path.join(extensionsDir(userDir), manifest.name)),
      cleanup,
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** Where the files come from: a folder here, or one fetched into a temporary folder. */
function locate(
  userDir: string,
  request: InstallRequest,
  temporary: string[],
): { from: string; metadata: Omit<InstallMetadata, 'installedAt'> } {
  const { source, ref } = request;
  const folderExists = !isGitUrl(source) && existsSync(source);
  if (request.link) {
    if (!folderExists)
      throw new ExtensionSourceError(`${source} is not a folder here; link a folder.`);
    return { from: path.resolve(source), metadata: { source: realpathSync(source), type: 'link' } };
  }
  if (folderExists) {
    if (ref)
      throw new ExtensionSourceError('--ref is for git sources; a folder is copied as it is.');
    return {
      from: path.resolve(source),
      metadata: { source: path.resolve(source), type: 'local' },
    };
  }
  // `<marketplace>:<plugin>` (Qwen Code's form), or `<plugin>@<added marketplace>` (Claude Code's).
  const claudeForm = /^([A-Za-z0-9][A-Za-z0-9_.-]*)@([A-Za-z0-9][A-Za-z0-9_.-]*)$/.exec(source);
  const marketplace =
    claudeForm && addedMarketplaces(userDir).some((entry) => entry.name === claudeForm[2])
      ? [source, claudeForm[2]!, claudeForm[1]!]
      : /^(.+):([A-Za-z0-9][A-Za-z0-9_.-]*)$/.exec(source);
  if (marketplace && !source.startsWith('npm:') && !/^[\w.-]+@[\w.-]+$/.test(marketplace[1]!)) {
    const opened = openMarketplace(userDir, marketplace[1]!, true);
    if (opened) {
      if (opened.cloned) temporary.push(path.dirname(opened.dir));
      const plugin = opened.plugins.find((entry) => entry.name === marketplace[2]);
      if (!plugin)
        throw new ExtensionSourceError(
          `marketplace "${opened.name}" has no plugin "${marketplace[2]}"; it has ${opened.plugins.map((entry) => entry.name).join(', ') || 'none'}.`,
        );
      const base = {
        source,
        type: 'marketplace' as const,
        marketplace: opened.name,
        plugin: plugin.name,
      };
      if ('dir' in plugin.source) {
        if (!existsSync(plugin.source.dir))
          throw new ExtensionSourceError(
            `plugin "${plugin.name}" lists ${plugin.source.dir}, which is missing.`,
          );
        // A marketplace's folder sources are its own folders, not any folder on the machine.
        if (!isWithin(realpathSync(opened.dir), realpathSync(plugin.source.dir)))
          throw new ExtensionSourceError(
            `plugin "${plugin.name}" lists ${plugin.source.dir}, which is outside marketplace "${opened.name}"; a marketplace's plugins must be inside it (or in a git repository).`,
          );
        return { from: plugin.source.dir, metadata: base };
      }
      const clone = cloneGit(plugin.source.git, ref ?? plugin.source.ref);
      temporary.push(path.dirname(clone.dir));
      return {
        from: clone.dir,
        metadata: { ...base, commit: clone.commit, ...(ref ? { ref } : {}) },
      };
    }
  }
  if (isGitUrl(source)) {
    const clone = cloneGit(source, ref);
    temporary.push(path.dirname(clone.dir));
    return {
      from: clone.dir,
      metadata: { source, type: 'git', commit: clone.commit, ...(ref ? { ref } : {}) },
    };
  }
  const npm =
    /^npm:(.+)$/.exec(source)?.[1] ??
    (/^@[\w.-]+\/[\w.-]+(@.+)?$/.test(source) ? source : undefined);
  if (npm) {
    if (ref)
      throw new ExtensionSourceError(
        '--ref is for git sources; give an npm version as name@version.',
      );
    const dir = packNpm(npm);
    temporary.push(path.dirname(dir));
    return { from: dir, metadata: { source, type: 'npm' } };
  }
  throw new ExtensionSourceError(
    `${source} is not a folder here, a git URL, an npm package (@scope/name or npm:name) or <marketplace>:<plugin>.`,
  );
}

/** Puts the prepared extension in place, with its install record and settings answers. */
export async function commitInstall(
  userDir: string,
  prepared: PreparedInstall,
  settings: Record<string, string> = {},
): Promise<string> {
  const base = extensionsDir(userDir);
  const target = path.join(base, prepared.name);
  const kept = existsSync(target) ? readEnvFile(target) : {};
  mkdirSync(base, { recursive: true, mode: 0o700 });
  // A dot-name is never read as an extension, should this process end before it is removed.
  const aside = path.join(base, `.${prepared.name}.replaced-${process.pid}`);
  if (existsSync(target)) moveFolder(target, aside);
  try {
    if (prepared.metadata.type === 'link') mkdirSync(target, { mode: 0o700 });
    else moveFolder(prepared.files, target);
    const metadata: InstallMetadata = {
      ...prepared.metadata,
      installedAt: new Date().toISOString(),
    };
    await writeOwnFile(
      userDir,
      path.join(target, INSTALL_METADATA_FILE),
      `${JSON.stringify(metadata, null, 2)}\n`,
    );
    const env = { ...kept, ...settings };
    if (Object.keys(env).length > 0 && prepared.metadata.type !== 'link')
      await writeOwnFile(
        userDir,
        path.join(target, SETTINGS_ENV_FILE),
        Object.entries(env)
          .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
          .join('\n')
          .concat('\n'),
      );
  } catch (error) {
    rmSync(target, { recursive: true, force: true });
    if (existsSync(aside)) moveFolder(aside, target);
    throw error;
  }
  rmSync(aside, { recursive: true, force: true });
  return target;
}

/** The request that installs `name` again from where it came from (update). */
export function updateRequest(userDir: string, name: string): InstallRequest | undefined {
  const metadata = readInstallMetadata(path.join(extensionsDir(userDir), name));
  if (!metadata || metadata.type === 'link') return undefined;
  return { source: metadata.source, ...(metadata.ref ? { ref: metadata.ref } : {}) };
}

export async function uninstallExtension(userDir: string, name: string): Promise<boolean> {
  const folder = path.join(extensionsDir(userDir), name);
  if (!existsSync(folder)) return false;
  rmSync(folder, { recursive: true, force: true });
  await forgetEnablement(userDir, name);
  return true;
}

/** A minimal Qwen Code extension in `folder` (new or empty), to start from. */
export function newExtension(folder: string): string[] {
  if (existsSync(folder) && readdirSync(folder).length > 0)
    throw new ExtensionSourceError(`${folder} is not empty; give a new folder.`);
  const name = path
    .basename(path.resolve(folder))
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  const files: Record<string, string> = {
    'qwen-extension.json': `${JSON.stringify({ name: name || 'my-extension', version: '1.0.0', contextFileName: 'QWEN.md', mcpServers: {} }, null, 2)}\n`,
    'QWEN.md': `# ${name}\n\nWhat the model should know when this extension is on.\n`,
    'commands/hello.toml': 'description = "Say hello"\nprompt = """\nSay hello to {{args}}.\n"""\n',
  };
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(folder, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return Object.keys(files);
}
