/**
 * The screen's colours in one place. With NO_COLOR (or a dumb terminal) every colour is
 * left out, so the screen stays readable as plain text.
 */
export interface Theme {
  enabled: boolean;
  accent: string | undefined;
  success: string | undefined;
  error: string | undefined;
  warning: string | undefined;
  muted: string | undefined;
  added: string | undefined;
  removed: string | undefined;
  hunk: string | undefined;
}

/** The themes `/theme` offers (ui.theme): for dark backgrounds, for light ones, none. */
export const THEMES = {
  dark: 'Colours for a dark background (the default)',
  light: 'Colours for a light background',
  mono: 'No colours: bold and plain text only',
} as const;

export type ThemeName = keyof typeof THEMES;

export function isThemeName(name: unknown): name is ThemeName {
  return typeof name === 'string' && Object.hasOwn(THEMES, name);
}

export function createTheme(enabled: boolean, name: ThemeName = 'dark'): Theme {
  const on = enabled && name !== 'mono';
  const pick = (dark: string, light = dark) => (on ? (name === 'light' ? light : dark) : undefined);
  return {
    enabled: on,
    accent: pick('cyan', 'blue'),
    success: pick('green'),
    error: pick('red'),
    warning: pick('yellow', 'magenta'),
    muted: pick('gray'),
    added: pick('green'),
    removed: pick('red'),
    hunk: pick('cyan', 'blue'),
  };
}

export function colorWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR && env.TERM !== 'dumb';
}
