import { describe, expect, it } from 'vitest';
import { clipboardPrograms, osc52, tmuxPassthrough } from './clipboard.js';

describe('clipboard', () => {
  it('encodes the text in an OSC 52 sequence, and wraps it for tmux', () => {
    expect(osc52('hé')).toBe(`\u001b]52;c;${Buffer.from('hé').toString('base64')}\u0007`);
    expect(osc52('x'.repeat(200_000))).toBeUndefined();
    expect(tmuxPassthrough('\u001b]52;c;aA==\u0007')).toBe(
      '\u001bPtmux;\u001b\u001b]52;c;aA==\u0007\u001b\\',
    );
  });

  it('tries the programs the system has a display for', () => {
    expect(clipboardPrograms({}, 'linux')).toEqual([]);
    expect(clipboardPrograms({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')[0]).toEqual(['wl-copy']);
    expect(clipboardPrograms({ DISPLAY: ':0' }, 'linux')[0]).toEqual([
      'xclip',
      '-selection',
      'clipboard',
    ]);
    expect(clipboardPrograms({}, 'darwin')).toEqual([['pbcopy']]);
  });
});
