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

export function createTheme(enabled: boolean): Theme {
  const pick = (color: string) => (enabled ? color : undefined);
  return {
    enabled,
    accent: pick('cyan'),
    success: pick('green'),
    error: pick('red'),
    warning: pick('yellow'),
    muted: pick('gray'),
    added: pick('green'),
    removed: pick('red'),
    hunk: pick('cyan'),
  };
}

export function colorWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.NO_COLOR && env.TERM !== 'dumb';
}
