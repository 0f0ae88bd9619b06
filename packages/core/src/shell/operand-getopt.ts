/**
 * Reading the options of programs that write their operands (operand-writers.ts), as GNU
 * getopt reads them: bundled short options, `--`, values attached or in the next word,
 * options after operands. An option not listed is a problem (a string), never harmless.
 */
import type { ShellWord } from './shell-words.js';

export interface WriteTarget {
  word: ShellWord;
  /** The command also changes everything below it when it is a folder (`rm -r`, `mv`). */
  below?: boolean;
  /** `word` is a source: what is written is its name inside this folder (`cp x dir`). */
  into?: ShellWord;
}

/** The files a command writes, or why they cannot be known before it runs. */
export type Writer = (words: ShellWord[]) => WriteTarget[] | string;

export interface GetoptSpec {
  /** Short options without a value. */
  short?: string;
  /** Short options with a value (attached or the next word). */
  valued?: string;
  long?: readonly string[];
  longValued?: readonly string[];
  /** `--name` or `--name=value` only. */
  longOptional?: readonly string[];
}

export interface Getopt {
  options: { name: string; value?: ShellWord }[];
  operands: ShellWord[];
}

/**
 * Options and operands as GNU getopt reads them. Words only known when the command runs
 * are operands (operand-writes.ts takes them for files only known then).
 */
export function getopt(words: readonly ShellWord[], spec: GetoptSpec): Getopt | string {
  const options: Getopt['options'] = [];
  const operands: ShellWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const text = word.value;
    if (!word.literal || !text.startsWith('-') || text === '-') {
      operands.push(word);
      continue;
    }
    if (text === '--') {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq === -1 ? text : text.slice(0, eq);
      const inline = eq === -1 ? undefined : { value: text.slice(eq + 1), literal: true };
      if (spec.long?.includes(name) && !inline) options.push({ name });
      else if (spec.longOptional?.includes(name))
        options.push(inline ? { name, value: inline } : { name });
      else if (spec.longValued?.includes(name)) {
        const value = inline ?? words[++i];
        if (!value) return `the option ${name} has no value`;
        options.push({ name, value });
      } else return `the option ${name} is not one toolhost knows`;
      continue;
    }
    for (let k = 1; k < text.length; k++) {
      const letter = text[k]!;
      if (spec.valued?.includes(letter)) {
        const rest = text.slice(k + 1);
        const value = rest ? { value: rest, literal: true } : words[++i];
        if (!value) return `the option -${letter} has no value`;
        options.push({ name: `-${letter}`, value });
        break;
      }
      if (!spec.short?.includes(letter)) return `the option -${letter} is not one toolhost knows`;
      options.push({ name: `-${letter}` });
    }
  }
  return { options, operands };
}

export function has(parsed: Getopt, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

export function optionValue(parsed: Getopt, ...names: string[]): ShellWord | undefined {
  return parsed.options.findLast((option) => names.includes(option.name))?.value;
}
