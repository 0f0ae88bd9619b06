import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../test/helpers/temp-workspace.js';
import { newRunLog, RecordingTool } from '../../test/helpers/test-tools.js';
import { Config } from '../config/config.js';
import type { Settings } from '../config/settings.js';
import { DuplicateToolError, ToolRegistry } from './tool-registry.js';
import { Kind } from './tools.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function registryWith(settings: Settings = {}) {
  const registry = new ToolRegistry(
    new Config({ roots: [dirs.root], settings, homeDir: dirs.home }),
  );
  const log = newRunLog();
  for (const name of ['read_file', 'grep_search', 'edit', 'run_shell_command']) {
    registry.registerTool(new RecordingTool(name, Kind.Read, log));
  }
  return registry;
}

describe('ToolRegistry', () => {
  it('lists declarations in registration order', () => {
    expect(
      registryWith()
        .getFunctionDeclarations()
        .map((d) => d.name),
    ).toEqual(['read_file', 'grep_search', 'edit', 'run_shell_command']);
  });

  it('gives each declaration a JSON schema', () => {
    const [declaration] = registryWith().getFunctionDeclarations();
    expect(declaration).toMatchObject({ name: 'read_file', description: expect.any(String) });
    expect(declaration?.parametersJsonSchema).toMatchObject({ type: 'object' });
  });

  it('refuses a second built-in with the same name, naming both', () => {
    const registry = registryWith();
    expect(() => registry.registerTool(new RecordingTool('edit', Kind.Edit, newRunLog()))).toThrow(
      DuplicateToolError,
    );
    expect(() => registry.registerTool(new RecordingTool('edit', Kind.Edit, newRunLog()))).toThrow(
      /Two tools are named "edit": edit \(RecordingTool, built-in\) and edit \(RecordingTool, built-in\)/,
    );
  });

  it('finds tools by the aliases other models use', () => {
    const registry = registryWith();
    expect(registry.getTool('search_file_content')?.name).toBe('grep_search');
    expect(registry.getTool('replace')?.name).toBe('edit');
    expect(registry.getTool('nothing')).toBeUndefined();
  });

  it('honours tools.core', () => {
    const registry = registryWith({ tools: { core: ['read_file', 'run_shell_command(git)'] } });
    expect(registry.getAllToolNames()).toEqual(['read_file', 'run_shell_command']);
    expect(registry.getTool('edit')).toBeUndefined();
    expect(registry.getRegisteredTool('edit')?.name).toBe('edit');
  });

  it('honours tools.exclude by name, display name or alias, but not argument rules', () => {
    const registry = registryWith({ tools: { exclude: ['replace', 'run_shell_command(rm)'] } });
    expect(registry.getAllToolNames()).toEqual(['read_file', 'grep_search', 'run_shell_command']);
  });

  it('lets exclude win over core', () => {
    const registry = registryWith({ tools: { core: ['read_file', 'edit'], exclude: ['edit'] } });
    expect(registry.getAllToolNames()).toEqual(['read_file']);
  });

  it('groups tools by MCP server and sorts discovered tools after built-ins', () => {
    const registry = registryWith();
    registry.registerTool(new RecordingTool('zeta', Kind.Other, newRunLog()), {
      type: 'mcp',
      serverName: 's1',
    });
    registry.registerTool(new RecordingTool('alpha', Kind.Other, newRunLog()), {
      type: 'mcp',
      serverName: 's1',
    });
    registry.registerTool(new RecordingTool('beta', Kind.Other, newRunLog()), {
      type: 'mcp',
      serverName: 's2',
    });
    expect(registry.getToolsByServer('s1').map((t) => t.name)).toEqual(['alpha', 'zeta']);
    expect(registry.getAllToolNames().slice(4)).toEqual(['alpha', 'beta', 'zeta']);
    registry.removeTools((source) => source.type === 'mcp' && source.serverName === 's1');
    expect(registry.getToolsByServer('s1')).toEqual([]);
  });
});
