/**
 * Turns a terminal screen captured with colours (`tmux capture-pane -e`) into an SVG image:
 * the README's screenshot of the interactive terminal is made this way from a test run
 * (tui-screenshot.test.ts; `npm run screenshot` writes docs/interactive-terminal.svg).
 */

export interface Style {
  fg: string | undefined;
  bg: string | undefined;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  strike: boolean;
}

/** No colour, no attribute: the terminal's default (and SGR 0's reset). */
const PLAIN_STYLE: Readonly<Style> = {
  fg: undefined,
  bg: undefined,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  strike: false,
};

export interface Run {
  text: string;
  style: Style;
}

const CELL_WIDTH = 8.4;
const LINE_HEIGHT = 18;
const FONT_SIZE = 14;
const PADDING = 16;
const BACKGROUND = '#1e1e2e';
const FOREGROUND = '#d9e0ee';

/** The 16 basic colours (normal, then bright), as a dark terminal theme shows them. */
const BASIC: readonly string[] = [
  '#45475a',
  '#f38ba8',
  '#a6e3a1',
  '#f9e2af',
  '#89b4fa',
  '#f5c2e7',
  '#94e2d5',
  '#bac2de',
  '#585b70',
  '#f38ba8',
  '#a6e3a1',
  '#f9e2af',
  '#89b4fa',
  '#f5c2e7',
  '#94e2d5',
  '#a6adc8',
];

function color256(index: number): string {
  if (index < 16) return BASIC[index] ?? FOREGROUND;
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return rgb(level, level, level);
  }
  const cube = index - 16;
  const steps = [0, 95, 135, 175, 215, 255];
  return rgb(
    steps[Math.floor(cube / 36)] ?? 0,
    steps[Math.floor(cube / 6) % 6] ?? 0,
    steps[cube % 6] ?? 0,
  );
}

function rgb(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

/** Applies one SGR sequence's parameters to the current style. */
function applySgr(style: Style, params: number[]): void {
  const codes = params.length === 0 ? [0] : params;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) Object.assign(style, PLAIN_STYLE);
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 7) style.inverse = true;
    else if (code === 9) style.strike = true;
    else if (code === 22) Object.assign(style, { bold: false, dim: false });
    else if (code === 23) style.italic = false;
    else if (code === 24) style.underline = false;
    else if (code === 27) style.inverse = false;
    else if (code === 29) style.strike = false;
    else if (code >= 30 && code <= 37) style.fg = BASIC[code - 30];
    else if (code >= 90 && code <= 97) style.fg = BASIC[code - 90 + 8];
    else if (code === 39) style.fg = undefined;
    else if (code >= 40 && code <= 47) style.bg = BASIC[code - 40];
    else if (code >= 100 && code <= 107) style.bg = BASIC[code - 100 + 8];
    else if (code === 49) style.bg = undefined;
    else if (code === 38 || code === 48) {
      const key = code === 38 ? 'fg' : 'bg';
      if (codes[i + 1] === 5) {
        style[key] = color256(codes[i + 2] ?? 0);
        i += 2;
      } else if (codes[i + 1] === 2) {
        style[key] = rgb(codes[i + 2] ?? 0, codes[i + 3] ?? 0, codes[i + 4] ?? 0);
        i += 4;
      }
    }
  }
}

/** The screen as rows of runs of text with one style each. */
export function parseScreen(text: string): Run[][] {
  const rows: Run[][] = [];
  const style: Style = { ...PLAIN_STYLE };
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const runs: Run[] = [];
    let current = '';
    const flush = () => {
      if (current) runs.push({ text: current, style: { ...style } });
      current = '';
    };
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '\u001b' && line[i + 1] === '[') {
        const end = line.slice(i + 2).search(/[A-Za-z]/);
        if (end === -1) break;
        const final = line[i + 2 + end];
        if (final === 'm') {
          flush();
          const params = line
            .slice(i + 2, i + 2 + end)
            .split(/[;:]/)
            .filter((part) => part !== '')
            .map(Number);
          applySgr(style, params);
        }
        i += 2 + end;
        continue;
      }
      current += line[i];
    }
    flush();
    rows.push(runs);
  }
  return rows;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function screenToSvg(text: string, title: string): string {
  const rows = parseScreen(text);
  const columns = Math.max(
    80,
    ...rows.map((runs) => runs.reduce((width, run) => width + [...run.text].length, 0)),
  );
  const width = Math.ceil(columns * CELL_WIDTH + PADDING * 2);
  const height = rows.length * LINE_HEIGHT + PADDING * 2;
  const parts: string[] = [];
  rows.forEach((runs, row) => {
    let column = 0;
    const y = PADDING + row * LINE_HEIGHT;
    for (const run of runs) {
      const length = [...run.text].length;
      const { style } = run;
      const fg = (style.inverse ? style.bg : style.fg) ?? (style.inverse ? BACKGROUND : FOREGROUND);
      const bg = style.inverse ? (style.fg ?? FOREGROUND) : style.bg;
      const x = PADDING + column * CELL_WIDTH;
      if (bg) {
        parts.push(
          `<rect x="${x.toFixed(1)}" y="${y}" width="${(length * CELL_WIDTH).toFixed(1)}" height="${LINE_HEIGHT}" fill="${bg}"/>`,
        );
      }
      if (run.text.trim()) {
        const attributes = [
          `x="${x.toFixed(1)}"`,
          `y="${y + LINE_HEIGHT - 5}"`,
          `fill="${fg}"`,
          style.bold ? 'font-weight="bold"' : '',
          style.dim ? 'opacity="0.6"' : '',
          style.italic ? 'font-style="italic"' : '',
          style.underline || style.strike
            ? `text-decoration="${style.underline ? 'underline' : 'line-through'}"`
            : '',
          `textLength="${(length * CELL_WIDTH).toFixed(1)}"`,
          'lengthAdjust="spacingAndGlyphs"',
        ].filter(Boolean);
        parts.push(
          `<text ${attributes.join(' ')} xml:space="preserve">${escapeXml(run.text)}</text>`,
        );
      }
      column += length;
    }
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="${FONT_SIZE}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" rx="8" fill="${BACKGROUND}"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
