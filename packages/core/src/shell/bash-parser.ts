/** Loads tree-sitter's bash grammar once (WebAssembly, shipped in the npm packages). */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Parser } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

export function getBashParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    // Loaded on the first shell command, not when a session starts.
    const { Language, Parser } = await import('web-tree-sitter');
    const require = createRequire(import.meta.url);
    await Parser.init();
    const grammarDir = path.dirname(require.resolve('tree-sitter-bash/package.json'));
    const language = await Language.load(path.join(grammarDir, 'tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return parserPromise;
}
