import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import { loadMemory } from '../memory/load-memory.js';
import { MEMORY_SECTION_HEADING } from '../memory/memory-file.js';
import { MemoryTool } from './memoryTool.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('save_memory', () => {
  it('saves to the project file by default and says where', async () => {
    const tool = new MemoryTool(ws.config);
    const result = await tool.execute({ fact: '- The build uses pnpm.' });
    expect(result.llmContent).toBe(
      `Remembered in the project memory file (no scope was given) ${ws.p('AGENTS.md')}: - The build uses pnpm.`,
    );
    expect(readFileSync(ws.p('AGENTS.md'), 'utf8')).toBe(
      `${MEMORY_SECTION_HEADING}\n\n- The build uses pnpm.\n`,
    );
  });

  it('saves to the global file in the toolhost folder', async () => {
    const tool = new MemoryTool(ws.config);
    await tool.execute({ fact: 'Prefers British spelling', scope: 'global' });
    expect(readFileSync(path.join(ws.home, '.toolhost', 'AGENTS.md'), 'utf8')).toContain(
      '- Prefers British spelling',
    );
  });

  it('uses the first context file name from settings', async () => {
    const config = new Config({
      roots: [ws.root],
      homeDir: ws.home,
      settings: { context: { fileName: ['QWEN.md', 'AGENTS.md'] } },
    });
    await new MemoryTool(config).execute({ fact: 'x' });
    expect(readFileSync(ws.p('QWEN.md'), 'utf8')).toContain('- x');
  });

  it('keeps the rest of an existing CRLF file byte for byte', async () => {
    const before = '# Notes\r\n\r\nKeep this   \r\nexactly.';
    writeFileSync(ws.p('AGENTS.md'), before);
    await new MemoryTool(ws.config).execute({ fact: 'new fact', scope: 'project' });
    const after = readFileSync(ws.p('AGENTS.md'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after).toBe(`${before}\r\n\r\n${MEMORY_SECTION_HEADING}\r\n\r\n- new fact\r\n`);
  });

  it('loses nothing when two saves run at once', async () => {
    const tool = new MemoryTool(ws.config);
    await Promise.all(['one', 'two', 'three', 'four'].map((fact) => tool.execute({ fact })));
    const content = readFileSync(ws.p('AGENTS.md'), 'utf8');
    for (const fact of ['one', 'two', 'three', 'four']) expect(content).toContain(`- ${fact}\n`);
  });

  it('asks with the diff', async () => {
    const details = await new MemoryTool(ws.config).shouldConfirmExecute({ fact: 'x' });
    expect(details && details.type === 'edit' && details.fileDiff).toContain('+- x');
  });

  it('rejects an empty fact', () => {
    expect(new MemoryTool(ws.config).validateToolParams({ fact: ' - ' })).toBe(
      'fact must contain the thing to remember',
    );
    expect(new MemoryTool(ws.config).validateToolParams({ fact: 'x', scope: 'team' })).toBe(
      'scope must be one of "global", "project"',
    );
  });
});

describe('loadMemory', () => {
  it('collects the global file, then the files from the root down to the current folder', () => {
    mkdirSync(path.join(ws.home, '.toolhost'), { recursive: true });
    writeFileSync(path.join(ws.home, '.toolhost', 'AGENTS.md'), 'global rules');
    writeFileSync(ws.p('AGENTS.md'), 'project rules');
    ws.write('packages/app/AGENTS.md', 'app rules');
    ws.write('packages/other/AGENTS.md', 'other rules');
    const memory = loadMemory(ws.config, { cwd: ws.p('packages', 'app') });
    expect(memory.files).toEqual([
      path.join(ws.home, '.toolhost', 'AGENTS.md'),
      ws.p('AGENTS.md'),
      ws.p('packages/app/AGENTS.md'),
    ]);
    expect(memory.text.indexOf('global rules')).toBeLessThan(memory.text.indexOf('project rules'));
    expect(memory.text.indexOf('project rules')).toBeLessThan(memory.text.indexOf('app rules'));
    expect(memory.text).not.toContain('other rules');
  });

  it('caps the size and lists what was cut', () => {
    writeFileSync(ws.p('AGENTS.md'), 'x'.repeat(500));
    ws.write('sub/AGENTS.md', 'y'.repeat(500));
    const memory = loadMemory(ws.config, { cwd: ws.p('sub'), maxChars: 600 });
    expect(memory.cut).toEqual([ws.p('sub/AGENTS.md')]);
    expect(memory.text).toContain('[... cut: the memory files exceed 600 characters]');
  });
});
