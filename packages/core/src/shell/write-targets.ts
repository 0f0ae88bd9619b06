/**
 * Files a line writes through its redirections (`>`, `>>`, `>|`, `&>`, `2>`, `>&file`) or
 * runners (`time -o`), judged by the Edit rules: a command an allow rule lets run
 * unasked only reads, so its output written to a file is a write of its own, which an
 * Edit allow rule may cover, an Edit deny rule refuses, and anything else asks about.
 */
import { expandTilde, fileProblem, givenPath, type ReadOnlyContext } from './read-only-check.js';
import type { ShellWord } from './shell-words.js';

export interface WriteJudgement {
  /** Why the line is refused: it writes a file an Edit deny rule covers (or may). */
  denied?: string;
  /** Files written that no Edit allow rule covers: the line asks. */
  asks: string[];
  /** Edit ask rules that cover a file written: asked in every approval mode. */
  askRules: string[];
  /** Files written that Edit allow rules cover. */
  allowed: string[];
}

/** Where writing does not change a file. */
const NOT_A_FILE = new Set(['/dev/null']);

export function judgeWrites(
  targets: readonly ShellWord[],
  context: ReadOnlyContext,
): WriteJudgement {
  const judgement: WriteJudgement = { asks: [], askRules: [], allowed: [] };
  for (const target of targets) {
    if (target.literal && NOT_A_FILE.has(target.value)) continue;
    const absolute = knownTarget(target, context);
    if (absolute === undefined) {
      if (context.editDenyRules) {
        judgement.denied = `it writes to ${target.value}, a file only known when it runs, while Edit deny rules are set`;
        return judgement;
      }
      judgement.asks.push(`it writes to ${target.value}, a file only known when it runs`);
      // It may be a file an Edit ask rule covers: asked in every mode, as the rule would.
      judgement.askRules.push(...(context.editAskRules ?? []));
      continue;
    }
    const verdict = context.writeRule?.(absolute);
    if (verdict?.kind === 'deny') {
      judgement.denied = `it writes to ${target.value}, which the rule ${verdict.rule} denies editing`;
      return judgement;
    }
    if (verdict?.kind === 'ask') {
      judgement.askRules.push(verdict.rule);
      judgement.asks.push(`the rule ${verdict.rule} asks before writing ${target.value}`);
    } else if (
      verdict?.kind === 'allow' &&
      !fileProblem(target.value, absolute, writableContext(context))
    )
      judgement.allowed.push(target.value);
    else judgement.asks.push(`it writes to ${target.value}`);
  }
  return judgement;
}

/** The absolute path a redirection writes, or undefined when it is only known at run time. */
function knownTarget(target: ShellWord, context: ReadOnlyContext): string | undefined {
  if (!target.literal) {
    // Bash expands a pattern in a redirection's file too: not followed here.
    if (/[*?[{]/.test(target.value)) return undefined;
    if (/^~/.test(target.value) && expandTilde(target.value, context) === null) return undefined;
  }
  const given = givenPath(target, context);
  return typeof given === 'string' ? given : undefined;
}

/** An Edit allow rule covers a file inside the workspace only (links resolved). */
function writableContext(context: ReadOnlyContext): ReadOnlyContext {
  const { readDenied: _ignored, ...rest } = context;
  return rest;
}
