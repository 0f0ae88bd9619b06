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

let jsoncLoaded: typeof jsoncModule | undefined;
let shellQuoteLoaded: typeof shellQuoteModule | undefined;
let picomatchLoaded: typeof picomatchModule | undefined;
let levenshteinLoaded: typeof levenshteinModule | undefined;
let ignoreLoaded: typeof ignoreModule | undefined;

/** jsonc-parser (six files): settings files are JSON with comments. */
export function jsonc(): typeof jsoncModule {
  jsoncLoaded ??= requireHere('jsonc-parser') as typeof jsoncModule;
  return jsoncLoaded;
}

/** shell-quote: splits shell rules, `mcp.serverCommand`, discovery and editor commands. */
export function shellQuote(): typeof shellQuoteModule {
  shellQuoteLoaded ??= requireHere('shell-quote') as typeof shellQuoteModule;
  return shellQuoteLoaded;
}

/** picomatch (six files): globs of the search and listing tools. */
export function picomatch(): typeof picomatchModule {
  picomatchLoaded ??= requireHere('picomatch') as typeof picomatchModule;
  return picomatchLoaded;
}

/** fastest-levenshtein: the nearest names to a misspelt one, for a message. */
export function levenshtein(): typeof levenshteinModule {
  levenshteinLoaded ??= requireHere('fastest-levenshtein') as typeof levenshteinModule;
  return levenshteinLoaded;
}

/** ignore: compiles the rules of a .gitignore or .toolhostignore that exists. */
export function ignoreLibrary(): typeof ignoreModule {
  ignoreLoaded ??= requireHere('ignore') as typeof ignoreModule;
  return ignoreLoaded;
}
