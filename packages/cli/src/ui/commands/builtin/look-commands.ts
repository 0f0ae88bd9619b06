/** /theme and /vim: how the terminal looks and how the prompt edits, each remembered in ~/.toolhost/settings.json. */
import { saveUserSetting } from '@toolhost/core/config';
import { isThemeName, THEMES, type ThemeName } from '../../theme.js';
import type { CommandContext, SlashCommand } from '../command-types.js';

/** Saves a choice in the person's settings; says so, or why it could not. */
async function remember(context: CommandContext, key: string[], value: unknown): Promise<string> {
  try {
    await saveUserSetting(context.config.userDir, key, value);
    return `saved as ${key.join('.')} in your settings`;
  } catch (error) {
    return `not saved: ${(error as Error).message}`;
  }
}

export const themeCommand: SlashCommand = {
  name: 'theme',
  description: 'Pick the colours of the terminal (dark, light, mono); remembered',
  argumentHint: '[dark|light|mono]',
  source: 'built-in',
  takesArguments: true,
  async run(context, args) {
    const names = Object.keys(THEMES) as ThemeName[];
    const current = context.config.settings.ui?.theme ?? 'dark';
    let chosen: string | undefined = args.trim();
    if (!chosen) {
      chosen = await context.pick(
        'Theme',
        names.map((name) => ({ value: name, label: name, detail: THEMES[name] })),
        Math.max(0, names.indexOf(current)),
      );
      if (chosen === undefined) return;
    }
    if (!isThemeName(chosen)) {
      context.print(`There is no theme "${chosen}"; pick one of ${names.join(', ')}.`, 'error');
      return;
    }
    context.setTheme(chosen);
    const saved = await remember(context, ['ui', 'theme'], chosen);
    context.config.settings.ui = { ...context.config.settings.ui, theme: chosen };
    context.print(`Theme ${chosen} (${saved}).`);
  },
  completeArguments(_context, args) {
    return Object.entries(THEMES)
      .filter(([name]) => name.startsWith(args.trim()))
      .map(([name, detail]) => ({ value: name, description: detail }));
  },
};

export const vimCommand: SlashCommand = {
  name: 'vim',
  description: 'Turn vim editing of the prompt on or off (Esc: normal mode, i: insert); remembered',
  source: 'built-in',
  takesArguments: false,
  async run(context) {
    const on = !context.vimMode();
    context.setVimMode(on);
    const saved = await remember(context, ['general', 'vimMode'], on);
    context.print(
      on
        ? `Vim editing on (${saved}): the prompt starts in insert mode; Esc goes to normal mode (h j k l w b e 0 $, x dd dw cw D C, i a I A o O), Enter sends in both.`
        : `Vim editing off (${saved}).`,
    );
  },
};
