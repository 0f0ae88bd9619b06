import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { createToolRegistry } from '../tools/builtin.js';
import { toolTitle } from './tool-titles.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('toolTitle', () => {
  it('gives every built-in tool a title in words, never its internal display name', () => {
    const registry = createToolRegistry(ws.config, { env: { TAVILY_API_KEY: 'k' } });
    const titles = registry
      .getAllTools()
      .map((tool) => [tool.name, toolTitle(tool.name, tool.displayName)]);
    expect(titles.length).toBeGreaterThan(8);
    for (const [name, title] of titles)
      expect(`${name}: ${title}`).toMatch(/^\w+: [A-Z][a-z]+( [a-z-]+)*$/);
    expect(Object.fromEntries(titles)).toMatchObject({
      read_file: 'Read file',
      grep_search: 'Search file contents',
      run_shell_command: 'Shell',
    });
  });

  it("keeps other tools' titles, splitting only a CamelCase display name", () => {
    expect(toolTitle('mcp_tool', 'Get weather (forecast)')).toBe('Get weather (forecast)');
    expect(toolTitle('discovered', 'FormatCode')).toBe('Format code');
    expect(toolTitle('discovered', 'deploy')).toBe('deploy');
  });
});
