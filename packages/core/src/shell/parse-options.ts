/**
 * Reads a command's options the way getopt would, against a table of the options that
 * are known: bundled short options (`-la`), values attached or in the next word (`-n5`,
 * `-n 5`, `--lines=5`, `--lines 5`), `--` ending the options. An option that is not in the
 * table, or a word that is only known at run time where an option may stand, is a
 * problem: callers treat it as "not understood", never as harmless.
 */
import type { ShellWord } from './shell-words.js';

export interface OptionSpec {
  /** Short options without a value, e.g. `'alh'`. */
  short?: string;
  /** Short options that take a value (attached or in the next word). */
  shortValued?: string;
  long?: readonly string[];
  /** Long options that take a value (`--name=value` or `--name value`). */
  longValued?: readonly string[];
  /** Long options whose value is optional: only `--name` or `--name=value`. */
  longOptional?: readonly string[];
  /** Accepts `-20` (head, tail, nice). */
  numeric?: boolean;
  /** Options end at the first operand (wrappers: what follows is the wrapped command). */
  stopAtOperand?: boolean;
  /** Whole words also accepted as options (`-M50%`, `-uno`). */
  extra?: RegExp;
}

export interface ParsedOption {
  /** `-n` or `--lines`. */
  name: string;
  value?: string;
  /** Whether the value is known before running. */
  valueLiteral?: boolean;
}

export type ParsedArgs =
  | {
      ok: true;
      options: ParsedOption[];
      /** Indices of the operands in `words`. */
      operands: number[];
      /** With `stopAtOperand`: the index of the first operand (words.length when none). */
      stoppedAt: number;
    }
  | { ok: false; problem: string };

export function parseOptions(words: readonly ShellWord[], spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: number[] = [];
  const short = spec.short ?? '';
  const shortValued = spec.shortValued ?? '';
  let i = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const text = word.value;
    if (!word.literal) {
      // `$x` or `*` may turn into an option when it runs.
      if (spec.stopAtOperand) break;
      if (!/^[A-Za-z0-9_./~+:=@%,]/.test(text))
        return { ok: false, problem: `the argument ${text} is only known when the command runs` };
      operands.push(i);
      continue;
    }
    if (text === '--') {
      if (spec.stopAtOperand) {
        i++;
        break;
      }
      for (let j = i + 1; j < words.length; j++) operands.push(j);
      i = words.length;
      break;
    }
    if (!text.startsWith('-') || text === '-') {
      if (spec.stopAtOperand) break;
      operands.push(i);
      continue;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq === -1 ? text : text.slice(0, eq);
      const inline = eq === -1 ? undefined : text.slice(eq + 1);
      if (spec.long?.includes(name) && inline === undefined) options.push({ name });
      else if (spec.longOptional?.includes(name))
        options.push({ name, value: inline, valueLiteral: true });
      else if (spec.longValued?.includes(name)) {
        if (inline !== undefined) options.push({ name, value: inline, valueLiteral: true });
        else {
          const next = words[++i];
          if (!next) return { ok: false, problem: `the option ${name} has no value` };
          options.push({ name, value: next.value, valueLiteral: next.literal });
        }
      } else
        return {
          ok: false,
          problem: `the option ${name} is not on toolhost's list of safe options`,
        };
      continue;
    }
    if (spec.extra?.test(text)) {
      options.push({ name: text });
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(text)) {
      options.push({ name: '-#', value: text.slice(1), valueLiteral: true });
      continue;
    }
    for (let k = 1; k < text.length; k++) {
      const letter = text[k]!;
      if (shortValued.includes(letter)) {
        const attached = text.slice(k + 1);
        if (attached) options.push({ name: `-${letter}`, value: attached, valueLiteral: true });
        else {
          const next = words[++i];
          if (!next) return { ok: false, problem: `the option -${letter} has no value` };
          options.push({ name: `-${letter}`, value: next.value, valueLiteral: next.literal });
        }
        break;
      }
      if (!short.includes(letter))
        return {
          ok: false,
          problem: `the option -${letter} is not on toolhost's list of safe options`,
        };
      options.push({ name: `-${letter}` });
    }
  }
  return { ok: true, options, operands, stoppedAt: Math.min(i, words.length) };
}

/** True when the parsed options contain one of `names`. */
export function hasOption(parsed: { options: ParsedOption[] }, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}
