import { describe, expect, it } from 'vitest';
import { addMemoryEntry, MEMORY_SECTION_HEADING as H, normalizeFact } from './memory-file.js';

describe('addMemoryEntry', () => {
  it('starts a file with the section', () => {
    expect(addMemoryEntry('', 'a')).toBe(`${H}\n\n- a\n`);
  });

  it('adds the section at the end, leaving the rest byte for byte', () => {
    const before = '# Project\n\nUse pnpm.\n';
    expect(addMemoryEntry(before, 'a')).toBe(`${before}\n${H}\n\n- a\n`);
  });

  it('handles a file without a final line break', () => {
    expect(addMemoryEntry('# Project\nUse pnpm.', 'a')).toBe(
      `# Project\nUse pnpm.\n\n${H}\n\n- a\n`,
    );
  });

  it('keeps CRLF files CRLF', () => {
    expect(addMemoryEntry('# P\r\nx\r\n', 'a')).toBe(`# P\r\nx\r\n\r\n${H}\r\n\r\n- a\r\n`);
    expect(addMemoryEntry(`${H}\r\n\r\n- a\r\n`, 'b')).toBe(`${H}\r\n\r\n- a\r\n- b\r\n`);
  });

  it('appends after the last entry of an existing section, before the next section', () => {
    const before = `# P\n\n${H}\n\n- one\n- two\n\n## Later section\ntext\n`;
    expect(addMemoryEntry(before, 'three')).toBe(
      `# P\n\n${H}\n\n- one\n- two\n- three\n\n## Later section\ntext\n`,
    );
  });

  it('appends to a section that ends the file without a line break', () => {
    expect(addMemoryEntry(`${H}\n\n- one`, 'two')).toBe(`${H}\n\n- one\n- two`);
  });
});

describe('normalizeFact', () => {
  it('trims, removes list markers and joins lines', () => {
    expect(normalizeFact('  - - Use tabs\n  in Makefiles  ')).toBe('Use tabs in Makefiles');
    expect(normalizeFact('* bullet')).toBe('bullet');
  });
});
