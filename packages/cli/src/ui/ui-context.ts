/** What every component may read: the theme, the width, and whether output is plain lines. */
import { createContext, useContext } from 'react';
import { createTheme, type Theme } from './theme.js';

export interface UiContextValue {
  theme: Theme;
  /** Columns of the terminal. */
  width: number;
  /** Rows of the terminal (the live part is kept below this, so it never scrolls). */
  height: number;
  /** Screen-reader mode: no spinners, boxes or redrawn areas; plain lines. */
  plain: boolean;
  showThinking: boolean;
}

export const UiContext = createContext<UiContextValue>({
  theme: createTheme(false),
  width: 80,
  height: 24,
  plain: false,
  showThinking: false,
});

export const useUi = (): UiContextValue => useContext(UiContext);
