import { describe, expect, it } from 'vitest';
import { rowLabel } from './tool-rows.js';

describe('rowLabel', () => {
  it("leaves out the tool's name where the description names the action", () => {
    expect(rowLabel('ReadFile', 'read_file', 'Read src/math.js')).toEqual({
      head: 'Read',
      rest: 'src/math.js',
    });
    expect(rowLabel('Edit', 'edit', 'Edit src/math.js')).toEqual({
      head: 'Edit',
      rest: 'src/math.js',
    });
    expect(rowLabel('Shell', 'run_shell_command', 'ls src')).toEqual({ head: '$', rest: 'ls src' });
    expect(rowLabel('Lookup (docs)', 'docs__lookup', 'docs: lookup {"q":"x"}')).toEqual({
      head: 'docs:',
      rest: 'lookup {"q":"x"}',
    });
  });

  it('keeps the name where the description does not say what is done', () => {
    expect(rowLabel('Task', 'task', 'general-purpose: survey')).toEqual({
      head: 'Task',
      rest: 'general-purpose: survey',
    });
    expect(rowLabel('probe', 'probe', 'probe {"a":1}')).toEqual({ head: 'probe', rest: '{"a":1}' });
    expect(rowLabel('ListFiles', 'list_directory', '')).toEqual({ head: 'ListFiles', rest: '' });
  });
});
