import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import type { Settings } from '../config/settings.js';
import { createToolRegistry } from './builtin.js';
import { BUILTIN_TOOL_NAMES, createToolRegistryFor } from './builtin-lazy.js';
import type { ToolRegistry } from './tool-registry.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const config = (settings: Settings = {}) =>
  new Config({ roots: [dirs.root], homeDir: dirs.home, settings });

/** What a registry offers and refuses, as every front end sees it. */
function offered(registry: ToolRegistry) {
  return {
    declarations: registry.getFunctionDeclarations(),
    classes: registry.getAllTools().map((tool) => tool.constructor.name),
    inactive: registry.getInactiveTools(),
    unavailable: registry.getUnavailableTools(),
  };
}

const SEARCH: Settings = { webSearch: { provider: 'searxng', baseUrl: 'http://127.0.0.1:9' } };

describe('built-in tools loaded one at a time', () => {
  it.each([
    ['without a search provider', {}],
    ['with one', SEARCH],
    ['with tools.exclude', { tools: { exclude: ['glob', 'ShellTool'] } }],
  ])(
    'give the tools createToolRegistry gives, in its order, once all are loaded (%s)',
    async (_name, settings) => {
      const eager = createToolRegistry(config(settings), { env: {} });
      const lazy = await createToolRegistryFor(config(settings), 'read_file', { env: {} });
      await lazy.loadDeferredBuiltins();
      expect(offered(lazy)).toEqual(offered(eager));
    },
  );

  it('name every built-in createToolRegistry can register', () => {
    const eager = createToolRegistry(config(SEARCH), { env: {} });
    expect(eager.getAllToolNames()).toEqual(BUILTIN_TOOL_NAMES);
  });

  it('load the tool called, by its name or an alias, and only it', async () => {
    const lazy = await createToolRegistryFor(config(), 'search_file_content', { env: {} });
    expect(lazy.getAllToolNames()).toEqual(['grep_search']);
    expect(lazy.getTool('search_file_content')?.name).toBe('grep_search');
    const turnedOff = await createToolRegistryFor(
      config({ tools: { exclude: ['read_file'] } }),
      'read_file',
      { env: {} },
    );
    // Turned off, and still known as a built-in (to say why it cannot be called).
    expect(turnedOff.getTool('read_file')).toBeUndefined();
    expect(turnedOff.getRegisteredTool('read_file')?.name).toBe('read_file');
  });

  it('keep the names of the built-ins not loaded: a discovered tool with one is qualified', async () => {
    const discover = path.join(dirs.root, 'discover.mjs');
    writeFileSync(
      discover,
      `#!${process.execPath}\nconsole.log(JSON.stringify([{ name: 'glob', description: 'Mine.' }]));\n`,
    );
    chmodSync(discover, 0o755);
    const settings = { tools: { discoveryCommand: discover } };
    const lazy = await createToolRegistryFor(config(settings), 'discovered__glob', { env: {} });
    await lazy.discoverAllTools();
    expect(lazy.getAllToolNames()).toEqual(['discovered__glob']);
    const eager = createToolRegistry(config(settings), { env: {} });
    await eager.discoverAllTools();
    expect(eager.getAllToolNames()).toContain('discovered__glob');
    await lazy.loadDeferredBuiltins();
    expect(offered(lazy)).toEqual(offered(eager));
  });
});
