/**
 * Files that commands write through their own options or operands rather than through a
 * redirection: `sort -o FILE`, `uniq IN OUT`, `find -fprint FILE` (and -fprint0, -fprintf,
 * -fls), and `find -delete`. A rule allowing `sort` or `find` names the command, not a
 * write, so these files are judged by the Edit rules like a redirection's (write-targets.ts),
 * and `find -delete` (files only known when it runs) and `sort --compress-program` (runs a
 * program) are never read-only. Where the options cannot be read, the command is taken to
 * write a file only known when it runs.
 */
import type { CommandAnalysis } from './command-analysis-types.js';
import { parseOptions } from './parse-options.js';
import type { ShellWord } from './shell-words.js';

/** Stands for a file only known when the command runs (judgeWrites asks or refuses). */
function unknownFile(why: string): ShellWord {
  return { value: `$(${why})`, literal: false };
}

const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

type ReadOnlyTable = typeof import('./read-only-commands.js').READ_ONLY_COMMANDS;
let readOnlyTable: ReadOnlyTable | undefined;

/**
 * Loads the read-only table, whose sort and uniq options say where their output file is.
 * analyzeCommand awaits it before a line is walked; a static import would load the whole
 * table wherever the shell tool is merely listed (`toolhost tools`, an MCP server's start).
 */
export async function loadOutputOptionSpecs(): Promise<void> {
  readOnlyTable ??= (await import('./read-only-commands.js')).READ_ONLY_COMMANDS;
}

/** Records what `name args` writes through its options in `analysis`. */
export function outputOptions(name: string, args: ShellWord[], analysis: CommandAnalysis): void {
  const targets: ShellWord[] = [];
  if (name === 'find') {
    for (const [i, word] of args.entries()) {
      if (!word.literal) continue; // find asks for run-time words (read-only-check.ts)
      if (FIND_WRITES.has(word.value))
        targets.push(args[i + 1] ?? unknownFile(`find ${word.value}`));
      if (word.value === '-delete')
        analysis.notReadOnly.push('find -delete removes files only known when it runs');
    }
  } else if ((name === 'sort' || name === 'uniq') && !readOnlyTable) {
    targets.push(unknownFile(`${name}: its options were not loaded`));
  } else if (name === 'sort' || name === 'uniq') {
    const spec = readOnlyTable![name]!.options;
    const parsed = parseOptions(
      args,
      name === 'sort'
        ? {
            ...spec,
            shortValued: `${spec.shortValued}oT`,
            longValued: [
              ...(spec.longValued ?? []),
              '--output',
              '--temporary-directory',
              '--compress-program',
              '--files0-from',
              '--batch-size',
              '--random-source',
            ],
          }
        : spec,
    );
    if (!parsed.ok) targets.push(unknownFile(`${name}: ${parsed.problem}`));
    else if (name === 'sort')
      for (const option of parsed.options) {
        if (option.name === '-o' || option.name === '--output')
          targets.push({ value: option.value ?? '', literal: option.valueLiteral ?? false });
        if (option.name === '--compress-program')
          analysis.notReadOnly.push(`sort --compress-program runs ${option.value}`);
      }
    if (parsed.ok && name === 'uniq') {
      const output = parsed.operands[1];
      if (output !== undefined) targets.push(args[output]!);
    }
  }
  for (const target of targets) {
    analysis.writes.push(target.value);
    analysis.writeTargets.push(target);
  }
}
