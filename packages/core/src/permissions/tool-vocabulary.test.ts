import { describe, expect, it } from 'vitest';
import { claudeNamesOf, claudeToolTarget, toolsNamed } from './tool-vocabulary.js';

describe('Claude Code tool names', () => {
  it('each stands for one toolhost tool, where a rule name may stand for a group', () => {
    expect(claudeToolTarget('Bash')).toBe('run_shell_command');
    expect(claudeToolTarget('Read')).toBe('read_file');
    expect(toolsNamed('Read')).toContain('grep_search');
    expect(claudeToolTarget('MultiEdit')).toBe('edit');
    expect(claudeToolTarget('NotebookRead')).toBe('read_file');
  });

  it('names it does not know, those of the object prototype included, stand for nothing', () => {
    for (const name of ['read_file', 'mcp__srv__Read', 'constructor', 'toString', '__proto__'])
      expect(claudeToolTarget(name), name).toBeUndefined();
  });

  it('a tool has every Claude Code name that stands for it, and no other', () => {
    expect(claudeNamesOf('edit').sort()).toEqual(['Edit', 'MultiEdit']);
    expect(claudeNamesOf('read_file').sort()).toEqual(['NotebookRead', 'Read']);
    expect(claudeNamesOf('run_shell_command')).toEqual(['Bash']);
    expect(claudeNamesOf('save_memory')).toEqual([]);
  });
});
