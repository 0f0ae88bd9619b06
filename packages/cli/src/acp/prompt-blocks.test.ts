import { describe, expect, it } from 'vitest';
import { promptFromBlocks } from './prompt-blocks.js';

describe('promptFromBlocks', () => {
  it('links to files become @ references: relative inside the project, spaces escaped', () => {
    const prompt = promptFromBlocks(
      [
        { type: 'text', text: 'Compare' },
        { type: 'resource_link', name: 'a b.ts', uri: 'file:///work/app/src/a%20b.ts' },
        { type: 'text', text: 'and' },
        { type: 'resource_link', name: 'x.ts', uri: 'file:///elsewhere/x.ts' },
        { type: 'resource_link', name: 'Docs', title: 'The docs', uri: 'https://example.com/d' },
      ],
      '/work/app',
    );
    expect(prompt.text).toBe(
      'Compare @src/a\\ b.ts and @/elsewhere/x.ts [The docs](https://example.com/d)',
    );
    expect(prompt.sections).toEqual([]);
    expect(prompt.media).toEqual([]);
  });

  it('embedded text is a marked section; images and binary resources are media parts', () => {
    const prompt = promptFromBlocks(
      [
        { type: 'text', text: 'Look.' },
        { type: 'resource', resource: { uri: 'file:///work/app/x.ts', text: 'let x = 1;' } },
        { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
        {
          type: 'resource',
          resource: {
            uri: 'file:///work/app/spec.pdf',
            blob: 'JVBER',
            mimeType: 'application/pdf',
          },
        },
      ],
      '/work/app',
    );
    expect(prompt.text).toBe('Look.');
    expect(prompt.sections).toEqual([
      '--- Content from file:///work/app/x.ts ---\nlet x = 1;\n--- End of content ---',
    ]);
    expect(prompt.media).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBER' } },
    ]);
  });
});
