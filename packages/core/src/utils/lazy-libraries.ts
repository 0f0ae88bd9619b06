/**
 * CommonJS libraries that most starts never call, required on first use instead of imported
 * at the top of the modules that use them: `toolhost call` and `tools` open settings,
 * permission rules and the tool registry, and each of these libraries is needed there only
 * when a particular thing exists (a settings file, a shell rule or serverCommand, an ignore
 * file, a glob to match, a misspelt name). They are required from this module's own
 * location, so Node's own resolution finds the same file an import would, in every install
 * layout (none of them has an `exports` map that would answer `import` and `require`
 * differently). Loading a module costs Node 20 about 0.3 ms a file (docs/speed.md).
 */
import { createRequire } from 'node:module';
import type * as levenshteinModule from 'fastest-levenshtein';
import type ignoreModule from 'ignore';
import type * as jsoncModule from 'jsonc-parser';
import type picomatchModule from 'picomatch';
import type * as shellQuoteModule from 'shell-quote';

const requireHere = createRequire(import.meta.url);

/** A getter that requires the package the first time it is called, then returns it. */
export function requiredOnFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireHere(name) as T;
    return loaded;
  };
}

/** jsonc-parser (six files): settings files are JSON with comments. */
export const jsonc = requiredOnFirstUse<typeof jsoncModule>('jsonc-parser');

/** shell-quote: splits shell rules, `mcp.serverCommand`, discovery and editor commands. */
export const shellQuote = requiredOnFirstUse<typeof shellQuoteModule>('shell-quote');

/** picomatch (six files): globs of the search and listing tools. */
export const picomatch = requiredOnFirstUse<typeof picomatchModule>('picomatch');

/** fastest-levenshtein: the nearest names to a misspelt one, for a message. */
export const levenshtein = requiredOnFirstUse<typeof levenshteinModule>('fastest-levenshtein');

/** ignore: compiles the rules of a .gitignore or .toolhostignore that exists. */
export const ignoreLibrary = requiredOnFirstUse<typeof ignoreModule>('ignore');
