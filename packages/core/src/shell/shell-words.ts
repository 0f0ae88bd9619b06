/**
 * The value of one bash word as the shell would pass it, and whether that value is known
 * before the command runs. A word is *literal* only when nothing in it is expanded: no
 * parameter or arithmetic expansion, no substitution, no glob, no brace expansion, no
 * tilde, no `$'…'` or `$"…"` (whose decoding this module does not attempt).
 */
import path from 'node:path';
import type { Node } from 'web-tree-sitter';

export interface ShellWord {
  value: string;
  /** True when `value` is exactly what the program receives, as one argument. */
  literal: boolean;
}

/** What makes an unquoted word expand: globs, extglob, brace expansion, a leading tilde. */
const BRACES = /\{[^}]*(,|\.\.)[^}]*\}/;
const EXPANDING = new RegExp(`[*?[\\]()]|^~|${BRACES.source}`);

export function wordValue(node: Node): ShellWord {
  switch (node.type) {
    case 'word':
    case 'number': {
      const unquoted = node.text;
      return {
        value: unquoted.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1'),
        literal: !EXPANDING.test(unquoted) && !unquoted.includes('$'),
      };
    }
    case 'raw_string':
      return { value: node.text.slice(1, -1), literal: true };
    case 'string': {
      let value = '';
      let literal = true;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content')
          value += child.text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
        else {
          literal = false;
          value += child.text;
        }
      }
      // `"` + unparsed text: tree-sitter leaves some `$` forms outside named children.
      if (/(^|[^\\])[$`]/.test(node.text.slice(1, -1)) && literal) literal = false;
      return { value, literal };
    }
    case 'concatenation': {
      let value = '';
      let literal = true;
      for (const child of node.children) {
        if (!child) continue;
        const part = child.isNamed ? wordValue(child) : { value: child.text, literal: false };
        value += part.value;
        literal &&= part.literal;
      }
      // tree-sitter splits `a{b,c}d` into several words: look at the whole.
      return { value, literal: literal && !BRACES.test(node.text) };
    }
    case 'command_name':
      return node.firstNamedChild ? wordValue(node.firstNamedChild) : { value: '', literal: false };
    default:
      // Expansions, substitutions, arithmetic, $'…', $"…": known only when the command runs.
      return { value: node.text, literal: false };
  }
}

/** A program name toolhost can match rules against: plain characters only. */
const PLAIN_PROGRAM = /^[A-Za-z0-9_.+@%:/-]+$/;

/** The program name of a command word, or null when it is not a plain literal. */
export function literalProgramName(word: ShellWord): string | null {
  if (!word.literal || !PLAIN_PROGRAM.test(word.value) || word.value.endsWith('/')) return null;
  return programName(word.value);
}

/** `/usr/bin/rm` → `rm`; `./build.sh` → `build.sh`. */
export function programName(word: string): string {
  return word.includes('/') ? path.posix.basename(word) : word;
}

/** A shell variable name with nothing else (no subscript, no expansion). */
export const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
