/**
 * Markdown for the terminal: headings, lists, tables, quotes, links and highlighted code
 * blocks as ANSI text wrapped to the width given (marked + marked-terminal). Colours
 * follow chalk's level, which is 0 when NO_COLOR is set (see interactive.ts).
 */
import { visibleText } from '@toolhost/core/utils';
import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { hangWrap } from './hang-wrap.js';

const renderers = new Map<number, Marked>();

function rendererFor(width: number): Marked {
  let renderer = renderers.get(width);
  if (!renderer) {
    renderer = new Marked(
      // The extension's types lag behind marked's; its runtime shape is what marked expects.
      markedTerminal({ width, reflowText: true, tab: 2, showSectionPrefix: false }) as never,
    );
    // marked-terminal renders the text of a tight list item as it is written, so **bold**
    // or `code` inside a list would show their markers: render its inline tokens instead.
    renderer.use({
      renderer: {
        text(token) {
          if (typeof token === 'object' && 'tokens' in token && token.tokens) {
            return this.parser.parseInline(token.tokens);
          }
          return false;
        },
      },
    });
    renderers.set(width, renderer);
  }
  return renderer;
}

/**
 * The text (a model's answer, its thinking, a plan) is made visible first: the only escape
 * sequences on screen are the renderer's own styles.
 */
export function renderMarkdown(raw: string, width: number): string {
  const text = visibleText(raw, { multiline: true });
  try {
    const columns = Math.max(20, width);
    const rendered = rendererFor(columns).parse(text, { async: false }) as string;
    return hangWrap(rendered.replace(/\s+$/, ''), columns);
  } catch {
    // Text the renderer cannot take is still worth showing as it is.
    return text;
  }
}
