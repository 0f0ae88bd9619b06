import { describe, expect, it } from 'vitest';
import { closestNames } from './closest-names.js';

const tools = ['read_file', 'write_file', 'list_directory', 'grep_search', 'glob', 'edit'];

describe('closestNames', () => {
  it('finds a typo first', () => {
    expect(closestNames('raed_file', tools)[0]).toBe('read_file');
  });

  it('finds names containing the request', () => {
    expect(closestNames('grep', tools)).toContain('grep_search');
  });

  it('returns nothing for an unrelated name', () => {
    expect(closestNames('deploy_to_production', tools)).toEqual([]);
  });

  it('caps the number of suggestions', () => {
    expect(closestNames('file', tools, 1)).toHaveLength(1);
  });
});
