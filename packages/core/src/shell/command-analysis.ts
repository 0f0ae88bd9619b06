/**
 * Finds every command a shell line would run, so allow and deny rules can judge each one:
 * pipelines, lists, subshells, command and process substitutions, here-documents, the
 * scripts given to `bash -c` and `eval` (parsed again), the commands behind wrappers such
 * as `env`, `xargs` or `timeout`, with quoting tricks (`\rm`, `r''m`) undone and paths to
 * programs (`/bin/rm`) reduced to their names.
 */
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { getBashParser } from './bash-parser.js';

export interface ShellCommand {
  /** The program name (`rm`, never `/bin/rm`). */
  name: string;
  args: string[];
  /** The source text of this command. */
  text: string;
}

export interface CommandAnalysis {
  commands: ShellCommand[];
  /** `$(...)`, backticks, `<(...)`, `>(...)`: shown to the person, never approved by a rule. */
  substitutions: string[];
  /** Files that output redirections write to. */
  writes: string[];
  /** Why part of the line could not be understood (parse error, a program name built at run time...). */
  unclear: string[];
}

const MAX_DEPTH = 5;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash']);

export async function analyzeCommand(command: string): Promise<CommandAnalysis> {
  const analysis: CommandAnalysis = { commands: [], substitutions: [], writes: [], unclear: [] };
  await analyzeInto(command, analysis, 0);
  return analysis;
}

async function analyzeInto(
  source: string,
  analysis: CommandAnalysis,
  depth: number,
): Promise<void> {
  if (depth > MAX_DEPTH) {
    analysis.unclear.push('commands nested too deeply');
    return;
  }
  const parser = await getBashParser();
  const tree = parser.parse(source);
  if (!tree) {
    analysis.unclear.push('the command could not be parsed');
    return;
  }
  try {
    if (tree.rootNode.hasError) analysis.unclear.push('the command has a syntax error');
    const nested: string[] = [];
    walk(tree.rootNode, analysis, nested);
    for (const script of nested) await analyzeInto(script, analysis, depth + 1);
  } finally {
    tree.delete();
  }
}

function walk(node: Node, analysis: CommandAnalysis, nested: string[]): void {
  switch (node.type) {
    case 'command':
      addCommand(node, analysis, nested);
      break;
    case 'declaration_command':
    case 'unset_command': {
      const keyword = node.child(0)?.text ?? node.type;
      analysis.commands.push({ name: keyword, args: [], text: node.text });
      break;
    }
    case 'command_substitution':
    case 'process_substitution':
      analysis.substitutions.push(node.text);
      break;
    case 'file_redirect':
      noteRedirect(node, analysis);
      break;
    case 'heredoc_body': {
      // A here-document fed to a shell is a script: judge its commands too.
      const statement = node.parent?.parent;
      const body =
        statement?.type === 'redirected_statement' ? statement.childForFieldName('body') : null;
      const program = body?.type === 'command' ? body.childForFieldName('name')?.text : undefined;
      if (program && SHELLS.has(programName(program.replace(/\\(.)/g, '$1'))))
        nested.push(node.text);
      break;
    }
    case 'ERROR':
      analysis.unclear.push(`cannot understand "${node.text.slice(0, 40)}"`);
      break;
    default:
      break;
  }
  for (const child of node.namedChildren) if (child) walk(child, analysis, nested);
}

function addCommand(node: Node, analysis: CommandAnalysis, nested: string[]): void {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return; // only assignments: `FOO=1`
  const words: { value: string; dynamic: boolean }[] = [
    wordValue(nameNode.firstNamedChild ?? nameNode),
  ];
  for (const argument of node.childrenForFieldName('argument')) {
    if (argument) words.push(wordValue(argument));
  }
  expandInvocation(words, node.text, analysis, nested);
}

/** Records a command, seeing through wrappers and into `bash -c` / `eval` scripts. */
function expandInvocation(
  words: { value: string; dynamic: boolean }[],
  text: string,
  analysis: CommandAnalysis,
  nested: string[],
): void {
  const first = words[0];
  if (!first) return;
  if (first.dynamic) {
    analysis.unclear.push(`the program name ${first.value} is only known when the command runs`);
    return;
  }
  const name = programName(first.value);
  const args = words.slice(1);
  const values = args.map((word) => word.value);

  const unwrap = WRAPPERS[name];
  if (unwrap) {
    const rest = unwrap(values);
    // A privilege change is itself something a rule must allow.
    if (name === 'sudo' || name === 'doas') analysis.commands.push({ name, args: values, text });
    if (rest === null || rest >= args.length) {
      if (name !== 'sudo' && name !== 'doas') analysis.commands.push({ name, args: values, text });
      return;
    }
    expandInvocation(args.slice(rest), text, analysis, nested);
    return;
  }
  if (SHELLS.has(name)) {
    const script = shellScriptArgument(args);
    if (script === 'dynamic') {
      analysis.unclear.push(`the script given to ${name} -c is only known when the command runs`);
      return;
    }
    if (script !== undefined) {
      nested.push(script);
      return;
    }
    if (!args.some((word) => !word.value.startsWith('-'))) {
      // No -c and no script file: the shell runs whatever arrives on its input.
      analysis.unclear.push(`${name} runs a script read from its input`);
    }
  }
  if (name === 'eval') {
    if (args.some((word) => word.dynamic)) {
      analysis.unclear.push('the text given to eval is only known when the command runs');
      return;
    }
    nested.push(values.join(' '));
    return;
  }
  analysis.commands.push({ name, args: values, text });
}

/** `/usr/bin/rm` → `rm`; `./build.sh` → `build.sh`. */
export function programName(word: string): string {
  return word.includes('/') ? path.posix.basename(word) : word;
}

/** The script of `bash -c SCRIPT`, 'dynamic' when it is built at run time, undefined without -c. */
function shellScriptArgument(
  args: { value: string; dynamic: boolean }[],
): string | 'dynamic' | undefined {
  for (let i = 0; i < args.length; i++) {
    const option = args[i]!.value;
    if (!option.startsWith('-') || option.startsWith('--')) {
      if (option.startsWith('--')) continue;
      return undefined; // a script file: the shell itself is the command
    }
    if (option.slice(1).includes('c')) {
      const script = args[i + 1];
      if (!script) return undefined;
      return script.dynamic ? 'dynamic' : script.value;
    }
  }
  return undefined;
}

/**
 * Wrappers run another command given in their arguments. Each returns the index of the
 * wrapped command's name in the arguments, or null when there is none.
 */
const WRAPPERS: Record<string, (args: string[]) => number | null> = {
  env: (args) =>
    skipOptions(args, {
      withValue: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
      assignments: true,
    }),
  command: (args) => skipOptions(args, {}),
  builtin: (args) => skipOptions(args, {}),
  exec: (args) => skipOptions(args, { withValue: ['-a'] }),
  nohup: (args) => skipOptions(args, {}),
  nice: (args) => skipOptions(args, { withValue: ['-n', '--adjustment'] }),
  time: (args) => skipOptions(args, { withValue: ['-f', '--format', '-o', '--output'] }),
  timeout: (args) => {
    const index = skipOptions(args, { withValue: ['-s', '--signal', '-k', '--kill-after'] });
    return index === null ? null : index + 1; // the duration comes first
  },
  xargs: (args) =>
    skipOptions(args, {
      withValue: [
        '-I',
        '-L',
        '-n',
        '-P',
        '-s',
        '-d',
        '-E',
        '-a',
        '--arg-file',
        '--delimiter',
        '--max-args',
        '--max-procs',
        '--replace',
      ],
    }),
  sudo: (args) =>
    skipOptions(args, {
      withValue: ['-u', '-g', '-C', '-D', '-p', '-h', '-U', '-r', '-t', '--user', '--group'],
      assignments: true,
    }),
  doas: (args) => skipOptions(args, { withValue: ['-u', '-C'] }),
  stdbuf: (args) => skipOptions(args, { withValue: ['-i', '-o', '-e'] }),
  setsid: (args) => skipOptions(args, {}),
  ionice: (args) => skipOptions(args, { withValue: ['-c', '-n', '-p'] }),
  chronic: (args) => skipOptions(args, {}),
  unbuffer: (args) => skipOptions(args, {}),
  watch: (args) => skipOptions(args, { withValue: ['-n', '--interval', '-d'] }),
};

function skipOptions(
  args: string[],
  spec: { withValue?: string[]; assignments?: boolean },
): number | null {
  const withValue = new Set(spec.withValue ?? []);
  let i = 0;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    i += withValue.has(arg) ? 2 : 1;
  }
  return i < args.length ? i : null;
}

/** The value of a word as the shell would see it, and whether it depends on run-time values. */
function wordValue(node: Node): { value: string; dynamic: boolean } {
  switch (node.type) {
    case 'word':
    case 'number':
      return { value: node.text.replace(/\\(.)/gs, '$1'), dynamic: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), dynamic: false };
    case 'ansi_c_string':
      return { value: node.text.slice(2, -1).replace(/\\(.)/gs, '$1'), dynamic: false };
    case 'string': {
      let value = '';
      let dynamic = false;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content') value += child.text.replace(/\\([$`"\\\n])/g, '$1');
        else {
          dynamic = true;
          value += child.text;
        }
      }
      return { value, dynamic };
    }
    case 'concatenation': {
      let value = '';
      let dynamic = false;
      for (const child of node.namedChildren) {
        if (!child) continue;
        const part = wordValue(child);
        value += part.value;
        dynamic ||= part.dynamic;
      }
      return { value, dynamic };
    }
    default:
      // Expansions, substitutions, arithmetic: known only when the command runs.
      return { value: node.text, dynamic: true };
  }
}

function noteRedirect(node: Node, analysis: CommandAnalysis): void {
  const operator = node.children.find((child) => child && !child.isNamed)?.text ?? '';
  if (!/>/.test(operator) || operator === '<>') return;
  const destination = node.childForFieldName('destination');
  const target = destination ? wordValue(destination) : { value: '', dynamic: true };
  // `2>&1`, `>&2` and /dev/null write to no file.
  if (/^&?\d*$/.test(target.value) && operator.includes('&')) return;
  if (/^&?[0-9-]$/.test(target.value)) return;
  if (
    target.value === '/dev/null' ||
    target.value === '/dev/stdout' ||
    target.value === '/dev/stderr'
  )
    return;
  analysis.writes.push(target.value || destination?.text || '?');
}
