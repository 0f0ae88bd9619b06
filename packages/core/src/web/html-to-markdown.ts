/** Clean Markdown from HTML: scripts, styles and page furniture dropped, links kept. */
import type TurndownService from 'turndown';

let service: Promise<TurndownService> | undefined;

/** The converter, built on first use: turndown brings a whole DOM implementation. */
function converter(): Promise<TurndownService> {
  service ??= import('turndown').then(({ default: TurndownService }) => {
    const instance = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
    });
    instance.remove([
      'script',
      'style',
      'noscript',
      'template',
      'iframe',
      'svg',
      'canvas',
      'nav',
      'header',
      'footer',
      'aside',
      'form',
      'button',
      'head',
    ]);
    return instance;
  });
  return service;
}

export async function htmlToMarkdown(
  html: string,
): Promise<{ title: string | undefined; markdown: string }> {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim().replace(/\s+/g, ' ');
  // The main content, when the page marks it, is what a reader wants.
  const main =
    /<main[\s>][\s\S]*<\/main>/i.exec(html)?.[0] ??
    /<article[\s>][\s\S]*<\/article>/i.exec(html)?.[0] ??
    html;
  const markdown = (await converter())
    .turndown(main)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: title ? decodeEntities(title) : undefined, markdown };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}
