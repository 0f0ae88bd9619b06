/**
 * One command invocation, as words: records the command for the rules, sees through the
 * runners in command-runners.ts, hands the scripts of `bash -c`, `eval`, `trap`, `watch`
 * and `find -exec` back for parsing, and reports as unclear what it cannot see into.
 */
import type { CommandAnalysis } from './command-analysis-types.js';
import { EXECUTION_VARIABLES, OPAQUE_RUNNERS, RUNNERS, SHELLS } from './command-runners.js';
import { GIT_CONFIG_CHANGING, gitGlobals } from './git-global-options.js';
import { outputOptions } from './output-options.js';
import { hasOption, parseOptions } from './parse-options.js';
import { literalProgramName, PLAIN_IDENTIFIER, type ShellWord } from './shell-words.js';

export interface InvocationContext {
  analysis: CommandAnalysis;
  /** Scripts found on the way (`bash -c`, `eval`…), parsed after this walk. */
  nested: string[];
}

interface Extra {
  assignments?: string[];
  appendsArgs?: boolean;
  via?: string;
}

/** Short options every shell here takes without a value. */
const SHELL_FLAGS = 'abefhkmnptuvxBCEHPTilr';
const SHELL_LONG_FLAGS = new Set([
  '--norc',
  '--noprofile',
  '--login',
  '--posix',
  '--restricted',
  '--verbose',
  '--noediting',
  '--help',
  '--version',
]);
const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
/** Builtins whose own behaviour this table cannot bound. */
const OPAQUE_BUILTINS: Record<string, string> = {
  let: 'let evaluates its arguments as arithmetic',
  enable: 'enable can load or swap builtins',
  bind: 'bind can attach commands to keys',
  complete: 'complete can attach commands',
  compgen: 'compgen expands words and can run functions',
  fc: 'fc runs commands from the history',
  alias: 'aliases can stand in for any command',
};

export function invoke(words: ShellWord[], text: string, context: InvocationContext, extra: Extra) {
  const { analysis } = context;
  const unclear = (why: string) => analysis.unclear.push(why);
  const first = words[0];
  if (!first) return;
  const name = literalProgramName(first);
  if (name === null) {
    unclear(`the program name ${first.value} is only known when the command runs`);
    return;
  }
  const args = words.slice(1);
  // `./ls`, `bin/grep`: a program found by its path, not on PATH (decideShell judges it).
  const program = first.value.includes('/') ? first.value : undefined;
  const record = (runsCheckedScript = false) =>
    analysis.commands.push({
      runsCheckedScript,
      name,
      ...(program === undefined ? {} : { program }),
      args: args.map((word) => word.value),
      literal: args.map((word) => word.literal),
      text,
      assignments: extra.assignments ?? [],
      appendsArgs: extra.appendsArgs ?? false,
      via: extra.via,
    });

  const runner = RUNNERS[name];
  if (runner) {
    const verdict = runner(args);
    switch (verdict.kind) {
      case 'runs': {
        if (verdict.recordRunner) record();
        if (verdict.detaches) analysis.notReadOnly.push(verdict.detaches);
        if (verdict.unclear) unclear(verdict.unclear);
        for (const file of verdict.writes ?? []) {
          analysis.writes.push(file.value);
          analysis.writeTargets.push(file);
        }
        const given = args.slice(0, verdict.commandAt).filter((w) => /^\w+=/.test(w.value));
        for (const assignment of given) {
          const variable = assignment.value.split('=')[0]!;
          if (EXECUTION_VARIABLES.test(variable))
            unclear(`it sets ${variable}, which changes what programs run`);
        }
        invoke(args.slice(verdict.commandAt), text, context, {
          assignments: [...(extra.assignments ?? []), ...given.map((w) => w.value)],
          appendsArgs: verdict.appendsArgs || extra.appendsArgs,
          via: extra.via ?? name,
        });
        return;
      }
      case 'script':
        if (verdict.script.literal) context.nested.push(verdict.script.value);
        else unclear(`the command given to ${name} is only known when it runs`);
        return;
      case 'unclear':
        unclear(verdict.why);
        record();
        return;
      case 'none':
        record();
        return;
    }
  }
  if (OPAQUE_RUNNERS.has(name)) {
    unclear(`${name} runs another command, which toolhost does not look into`);
    record();
    return;
  }
  if (SHELLS.has(name)) {
    record(shell(name, args, context));
    return;
  }
  switch (name) {
    case 'eval':
      if (args.every((word) => word.literal))
        context.nested.push(args.map((w) => w.value).join(' '));
      else unclear('the text given to eval is only known when the command runs');
      return;
    case 'source':
    case '.':
      unclear(
        `${name} runs the script file ${args[0]?.value ?? ''}, which toolhost does not check`,
      );
      break;
    case 'trap':
      trap(args, context);
      break;
    case 'find':
      findExec(args, text, context);
      outputOptions(name, args, context.analysis);
      break;
    case 'sort':
    case 'uniq':
      outputOptions(name, args, context.analysis);
      break;
    case 'git':
      gitOptions(args, context);
      break;
    default:
      checkNameArguments(name, args, context);
  }
  const opaque = OPAQUE_BUILTINS[name];
  if (opaque && (name !== 'alias' || args.length > 0)) unclear(opaque);
  record();
}

/**
 * `bash -c SCRIPT` is looked into; a script file or standard input cannot be. Returns
 * true when the script was handed on for parsing.
 */
function shell(name: string, args: ShellWord[], context: InvocationContext): boolean {
  const unclear = (why: string) => context.analysis.unclear.push(why);
  let commandString = false;
  let fromInput = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!word.literal) {
      unclear(`${name}: the argument ${word.value} is only known when the command runs`);
      return false;
    }
    const option = word.value;
    if (option === '--' || option === '-') {
      i++;
      break;
    }
    if (option.startsWith('--')) {
      if (SHELL_LONG_FLAGS.has(option)) continue;
      unclear(`${name}: the option ${option} is not one toolhost knows`);
      return false;
    }
    if (!/^[-+]./.test(option)) break;
    for (const letter of option.slice(1)) {
      if (letter === 'c') commandString = true;
      else if (letter === 's') fromInput = true;
      else if (letter === 'o' || letter === 'O')
        i++; // the option's name follows
      else if (!SHELL_FLAGS.includes(letter)) {
        unclear(`${name}: the option -${letter} is not one toolhost knows`);
        return false;
      }
    }
  }
  const operand = args[i];
  if (commandString) {
    if (!operand) unclear(`${name} -c without a script`);
    else if (!operand.literal)
      unclear(`the script given to ${name} -c is only known when the command runs`);
    else {
      context.nested.push(operand.value);
      return true;
    }
  } else if (fromInput || !operand) {
    unclear(`${name} runs a script read from its standard input, which toolhost cannot check`);
  } else {
    unclear(`${name} runs the script file ${operand.value}, which toolhost does not check`);
  }
  return false;
}

function trap(args: ShellWord[], context: InvocationContext) {
  const action = args[0];
  if (!action || /^-[lp]$/.test(action.value) || action.value === '-' || action.value === '')
    return;
  const script = action.value === '--' ? args[1] : action;
  if (!script) return;
  if (script.literal) context.nested.push(script.value);
  else context.analysis.unclear.push('the command given to trap is only known when it runs');
}

/** `find … -exec CMD … ;` runs CMD: judge it like any command. */
function findExec(args: ShellWord[], text: string, context: InvocationContext) {
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!.value)) continue;
    const via = `find ${args[i]!.value}`;
    const end = args.findIndex(
      (w, j) => j > i && w.literal && (w.value === ';' || w.value === '+'),
    );
    if (end === -1) {
      context.analysis.unclear.push(`${via} has no terminating ; or +`);
      return;
    }
    invoke(args.slice(i + 1, end), text, context, {
      via,
      appendsArgs: args[end]!.value === '+',
    });
    i = end;
  }
}

/** Builtins that take variable names: bash evaluates subscripts in them (`a[$(…)]`). */
function checkNameArguments(name: string, args: ShellWord[], context: InvocationContext) {
  const unclear = (why: string) => context.analysis.unclear.push(why);
  const notAName = (word: ShellWord | undefined) =>
    word !== undefined && !(word.literal && PLAIN_IDENTIFIER.test(word.value.split('=')[0]!));
  // `read PATH`, `printf -v PATH`, `unset PATH` (bash then looks in the current folder)…
  const sets = (word: ShellWord | undefined) => {
    const variable = word?.value.split('=')[0];
    if (variable && EXECUTION_VARIABLES.test(variable))
      unclear(`${name} sets ${variable}, which changes what programs run`);
  };
  const names = (spec: Parameters<typeof parseOptions>[1], valueNames: string[] = []) => {
    const parsed = parseOptions(args, spec);
    if (!parsed.ok) {
      unclear(`${name}: ${parsed.problem}`);
      return undefined;
    }
    const bad =
      parsed.operands.some((index) => notAName(args[index])) ||
      parsed.options.some(
        (o) =>
          valueNames.includes(o.name) &&
          notAName({ value: o.value ?? '', literal: !!o.valueLiteral }),
      );
    if (bad) unclear(`${name} is given a variable name bash would evaluate`);
    if (!DECLARATIONS.has(name)) {
      for (const index of parsed.operands) sets(args[index]);
      for (const o of parsed.options)
        if (valueNames.includes(o.name)) sets({ value: o.value ?? '', literal: true });
    }
    return parsed;
  };
  if (DECLARATIONS.has(name)) {
    const parsed = names({ short: 'aAfFgilnprtux', long: [] });
    if (parsed && hasOption(parsed, '-n', '-i'))
      unclear(`${name} -n/-i make bash evaluate names or arithmetic`);
    return;
  }
  switch (name) {
    case 'unset':
      names({ short: 'fvn' });
      return;
    case 'read':
      names({ short: 'ers', shortValued: 'adinNptu' }, ['-a']);
      return;
    case 'mapfile':
    case 'readarray':
      if (args.some((w) => /^-[^-]*C/.test(w.value))) unclear(`${name} -C runs a callback`);
      else names({ short: 't', shortValued: 'dnOsu' });
      return;
    case 'getopts':
      if (notAName(args[1])) unclear('getopts is given a variable name bash would evaluate');
      sets(args[1]);
      return;
    case 'printf': {
      const v = args.findIndex((w) => w.value === '-v');
      if (v !== -1 && notAName(args[v + 1]))
        unclear('printf -v is given a variable name bash would evaluate');
      if (v !== -1) sets(args[v + 1]);
      if (args[0] && !args[0].literal && args.length > 1)
        unclear('the first argument of printf is only known when it runs (it could be -v)');
      return;
    }
    case 'test':
    case '[':
    case 'wait': {
      const v = args.findIndex((w) => w.value === '-v' || w.value === '-p');
      if (v !== -1 && notAName(args[v + 1]))
        unclear(`${name} -v is given a variable name bash would evaluate`);
      if (name === 'wait' && v !== -1) sets(args[v + 1]);
      if (
        (name === 'test' || name === '[') &&
        args.some((w) => !w.literal) &&
        args.some((w) => w.value.includes('['))
      )
        unclear(`${name} with a run-time operand could evaluate a subscript`);
      return;
    }
    case 'hash':
      if (args.some((w) => /^-[^-]*p/.test(w.value) || !w.literal))
        unclear('hash -p makes a name run another program');
      return;
    default:
      return;
  }
}

/** git's own options that change its configuration or the programs it runs. */
function gitOptions(args: ShellWord[], context: InvocationContext) {
  const globals = gitGlobals(args);
  if (globals.problem && args[globals.subcommandAt]?.literal === false)
    context.analysis.unclear.push(`git: ${globals.problem}`);
  for (const option of globals.options) {
    const why = GIT_CONFIG_CHANGING[option.name];
    if (why) context.analysis.unclear.push(`git ${option.name} ${why}`);
  }
  // `git diff --output=FILE` writes its output there (format-patch -o: a folder of files).
  const rest = args.slice(globals.subcommandAt + 1);
  const formatPatch = args[globals.subcommandAt]?.value === 'format-patch';
  for (const [i, word] of rest.entries()) {
    if (word.value === '--') break;
    const attached = /^--(output|output-directory)=(.*)$/s.exec(word.value);
    const file: ShellWord | undefined = attached
      ? { value: attached[2]!, literal: word.literal }
      : word.value === '--output' || (formatPatch && /^(-o|--output-directory)$/.test(word.value))
        ? rest[i + 1]
        : undefined;
    if (!file) continue;
    context.analysis.writes.push(file.value);
    context.analysis.writeTargets.push(file);
  }
}
