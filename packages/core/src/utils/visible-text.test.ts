import { describe, expect, it } from 'vitest';
import { visibleText } from './visible-text.js';

describe('visibleText', () => {
  it('shows the forged-approval command with every control escaped and touch visible', () => {
    const command =
      'touch /tmp/canary #\r\u001b[2K\u001b[1A\r\u001b[2KRun this command? …\u001b[1B\r\u001b[2Knpm test';
    expect(visibleText(command)).toBe(
      'touch /tmp/canary #\\r\\e[2K\\e[1A\\r\\e[2KRun this command? …\\e[1B\\r\\e[2Knpm test',
    );
  });

  it('escapes C0, DEL, C1, bidi, zero-width, separators and tags; keeps lines when asked', () => {
    expect(visibleText('a\u0007b\u007fc\u009bd')).toBe('a\\x07b\\x7fc\\u{9b}d');
    expect(visibleText('file\u202egnp.exe')).toBe('file\\u{202e}gnp.exe');
    expect(visibleText('r\u200bm \u2066x\u2069')).toBe('r\\u{200b}m \\u{2066}x\\u{2069}');
    expect(visibleText('a\u2028b\ufeff\u{e0041}')).toBe('a\\u{2028}b\\u{feff}\\u{e0041}');
    expect(visibleText('one\n\ttwo')).toBe('one\\n\\ttwo');
    expect(visibleText('one\n\ttwo\r', { multiline: true })).toBe('one\n\ttwo\\r');
    expect(visibleText('crlf\r\nlines\r\rx', { multiline: true })).toBe('crlf\r\nlines\\r\\rx');
  });

  it('leaves ordinary text, accents, CJK and emoji alone', () => {
    const plain = 'naïve café 日本語 👍🏽 a → b';
    expect(visibleText(plain)).toBe(plain);
  });
});
