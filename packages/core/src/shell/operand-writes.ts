/**
 * Files that well-known programs write, create, remove, move or change through the names
 * they are given (`touch f`, `cp x .env`, `rm -r notes`, `sed -i … f`, `tar -xf a.tar`),
 * as opposed to redirections (write-targets.ts) or output options (output-options.ts).
 * This file owns the walk over a line's commands (following `cd` as covered-reads.ts does)
 * and the judging of those files by the Edit rules; the table of which operand each
 * program writes is in operand-writers.ts and operand-writers-more.ts. A person's allow
 * rule for the program (`Bash(cp:*)`) stays what lets it run: these files are only
 * checked against Edit deny rules (refused in every mode) and Edit ask rules (asked in
 * every mode). A file the table cannot know before the command runs (options it cannot
 * read, a name built at run time, an archive's contents) is refused while Edit deny rules
 * exist and asked about while Edit ask rules exist.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CommandAnalysis, ShellCommand } from './command-analysis-types.js';
import { movedTo } from './covered-reads.js';
import { coveredBelow } from './covered-walks.js';
import { expandWord } from './glob-expansion.js';
import type { WriteTarget } from './operand-getopt.js';
import { WRITERS } from './operand-writers.js';
import { expandTilde, givenPath, type ReadOnlyContext } from './read-only-check.js';
import type { ShellWord } from './shell-words.js';
import { judgeWrites, type WriteJudgement } from './write-targets.js';

/** Stands for a file only known when the command runs (judgeWrites asks or refuses). */
export function unknownTarget(why: string): WriteTarget {
  return { word: { value: `$(${why})`, literal: false } };
}

/**
 * What the line's commands write through their operands, judged by the Edit rules in the
 * folders each command may run in. Only Edit deny and ask rules speak here (see above).
 */
export function judgeOperandWrites(
  analysis: CommandAnalysis,
  context: ReadOnlyContext,
): WriteJudgement {
  const judgement: WriteJudgement = { asks: [], askRules: [], allowed: [] };
  let folders: string[] | string = [context.cwd];
  const visited = new Set<string>();
  let lost: string | undefined;
  for (const command of analysis.commands) {
    const targets = WRITERS[command.name] ? commandTargets(command) : undefined;
    if (targets) {
      for (const cwd of typeof folders === 'string' ? [context.cwd] : folders) {
        const here = { ...context, cwd };
        const words = typeof folders === 'string' ? targets.map(unknownIn(folders)) : targets;
        const part = judgeTargets(words, here);
        if (part.denied) return part;
        judgement.asks.push(...part.asks);
        judgement.askRules.push(...part.askRules);
      }
    }
    if (typeof folders !== 'string' && ['cd', 'pushd', 'popd'].includes(command.name)) {
      folders = movedTo(command, folders, context);
      if (typeof folders === 'string') lost = folders;
      else for (const folder of folders) visited.add(folder);
    }
  }
  // A redirection after a `cd` (`cd notes && echo x > f`) writes in that folder: judgeWrites
  // judged it from where the line starts; here from every other folder it may run in.
  visited.delete(context.cwd);
  const redirections = analysis.writeTargets.map((word) => ({ word }));
  const elsewhere = [...visited].map((cwd) => judgeTargets(redirections, { ...context, cwd }));
  if (lost) elsewhere.push(judgeTargets(redirections.map(unknownIn(lost)), context));
  for (const part of elsewhere) {
    if (part.denied) return part;
    judgement.asks.push(...part.asks);
    judgement.askRules.push(...part.askRules);
  }
  judgement.askRules = [...new Set(judgement.askRules)];
  return judgement;
}

/** After a `cd` toolhost cannot follow, every relative name is a file only known at run time. */
function unknownIn(why: string) {
  return (target: WriteTarget): WriteTarget =>
    target.word.literal && path.isAbsolute(target.word.value) ? target : unknownTarget(why);
}

/** The files `command` writes, as its words (globs not yet expanded). */
function commandTargets(command: ShellCommand): WriteTarget[] {
  const words = command.args.map((value, i) => ({ value, literal: command.literal[i] ?? false }));
  // Arguments added when it runs (`xargs rm`, `find -exec rm {} +`) are not known here.
  if (command.appendsArgs || command.via?.startsWith('find'))
    return [unknownTarget(`${command.name} is given file names when it runs`)];
  const targets = WRITERS[command.name]!(words);
  if (typeof targets === 'string') return [unknownTarget(`${command.name}: ${targets}`)];
  // `$x` may split into several words, options among them: what it writes is not known.
  const runTime = words.find((word) => !word.literal && /[$`]/.test(word.value));
  return runTime ? [...targets, unknownTarget(`${command.name} ${runTime.value}`)] : targets;
}

/** Expands each target as bash would here, then judges it (and what lies below it). */
function judgeTargets(targets: WriteTarget[], context: ReadOnlyContext): WriteJudgement {
  const words: ShellWord[] = [];
  const below: string[] = [];
  for (const target of targets) {
    for (const word of namesWritten(target, context)) {
      words.push(word);
      if (target.below && word.literal) {
        const given = givenPath(word, context);
        if (typeof given === 'string') below.push(given);
      }
    }
  }
  const judgement = judgeWrites(words, context);
  if (judgement.denied) return judgement;
  const rule = context.writeRule;
  // Only deny and ask rules speak here: without one, no folder is searched.
  if (!rule || !(context.editDenyRules || context.editAskRules?.length)) return judgement;
  for (const folder of below) {
    if (!existsSync(folder)) {
      // `cp -r src notes` makes notes and files in it: a rule for what lies inside
      // (`Edit(./notes/**)`) is asked about a name there.
      const inside = judgeWrites(
        [{ value: `${folder}/(files put in it)`, literal: true }],
        context,
      );
      if (inside.denied) return inside;
      judgement.askRules.push(...inside.askRules);
      continue;
    }
    // `rm -r notes` removes what an Edit rule covers inside notes, though it names only notes.
    const covered = coveredBelow(folder, (file) => {
      const verdict = rule(file);
      return verdict && verdict.kind !== 'allow' ? verdict.rule : undefined;
    });
    if (covered === 'too-many') {
      const far = judgeWrites([unknownTarget(`the files below ${folder}`).word], context);
      if (far.denied) return far;
      judgement.asks.push(...far.asks);
      judgement.askRules.push(...far.askRules);
    } else if (covered) {
      const shown = path.relative(context.cwd, covered.file) || covered.file;
      if (rule(covered.file)?.kind === 'deny')
        return {
          ...judgement,
          denied: `it changes ${shown}, which the rule ${covered.rule} denies editing`,
        };
      judgement.askRules.push(covered.rule);
      judgement.asks.push(`the rule ${covered.rule} asks before changing ${shown}`);
    }
  }
  return judgement;
}

/** The names a target writes: its own, or each source's name inside the `into` folder. */
function namesWritten(target: WriteTarget, context: ReadOnlyContext): ShellWord[] {
  const names = expandTarget(target.word, context);
  if (!target.into) return names;
  const written: ShellWord[] = [];
  for (const folder of expandTarget(target.into, context))
    for (const name of names)
      written.push(
        folder.literal && name.literal
          ? {
              value: `${folder.value.replace(/\/+$/, '')}/${path.basename(name.value)}`,
              literal: true,
            }
          : unknownTarget(`a name inside ${folder.value}`).word,
      );
  return written;
}

/** The names bash makes of a target word: patterns expanded now, `~` resolved. */
function expandTarget(word: ShellWord, context: ReadOnlyContext): ShellWord[] {
  if (word.literal || /[$`]/.test(word.value)) return [word];
  if (!/[*?[{~]/.test(word.value)) return [{ value: word.value, literal: true }];
  const expanded = expandWord(word.value, context.cwd, (value) => expandTilde(value, context));
  if ('problem' in expanded) return [unknownTarget(expanded.problem).word];
  // A name that starts with `-` is an option to the program, not the file it names.
  if (expanded.words.some((value) => value.startsWith('-')))
    return [unknownTarget(`${word.value} expands to a name starting with -`).word];
  return expanded.words.map((value) => ({ value, literal: true }));
}
