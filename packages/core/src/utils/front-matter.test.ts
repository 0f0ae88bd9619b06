import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from './front-matter.js';

describe('splitFrontMatter', () => {
  it('splits fields and body; a file without front matter is all body', () => {
    expect(splitFrontMatter('\uFEFF---\r\nname: a\r\n---\r\n\nBody\n', 'name')).toEqual({
      fields: { name: 'a' },
      body: 'Body',
    });
    expect(splitFrontMatter('---\n---\nBody', 'name')).toEqual({ fields: {}, body: 'Body' });
    expect(splitFrontMatter('# Title\n\ntext\n', 'name')).toEqual({
      fields: undefined,
      body: '# Title\n\ntext',
    });
  });

  it('ends the block only at a line of its own', () => {
    expect(splitFrontMatter('---\ndescription: a---\nmore: b\n---\nBody', 'x')).toEqual({
      fields: { description: 'a---', more: 'b' },
      body: 'Body',
    });
  });

  it('says what is wrong with the front matter', () => {
    expect(splitFrontMatter('---\nname: [open\n---\nBody', 'name')).toMatch(
      /^its front matter is not valid YAML: /,
    );
    expect(splitFrontMatter('---\n- a\n- b\n---\nBody', 'name, tools')).toBe(
      'its front matter must be a set of fields (name, tools).',
    );
  });
});
