/**
 * Finds every command a shell line would run, so allow and deny rules can judge each one:
 * pipelines, lists, subshells, command and process substitutions, here-documents, the
 * scripts given to `bash -c`, `eval`, `trap` and `watch` (parsed again), the commands
 * behind wrappers (`env`, `xargs`, `timeout`, `find -exec`…). It fails closed: whatever it
 * cannot pin down before the line runs (a program name built at run time, a script read
 * from a file or from standard input, a construct that makes bash evaluate a string as
 * code) is reported as *unclear*, which asks the person and is refused while deny rules
 * exist. Command invocations are read in command-invocation.ts.
 */
import type { Node } from 'web-tree-sitter';
import { getBashParser } from './bash-parser.js';
import type { CommandAnalysis } from './command-analysis-types.js';
import { type InvocationContext, invoke } from './command-invocation.js';
import { EXECUTION_VARIABLES, SHELLS } from './command-runners.js';
import { loadOutputOptionSpecs } from './output-options.js';
import { PLAIN_IDENTIFIER, type ShellWord, wordValue } from './shell-words.js';

export type { CommandAnalysis, ShellCommand } from './command-analysis-types.js';
export { programName } from './shell-words.js';

const MAX_DEPTH = 5;

/** What one walk knows besides the invocation context. */
interface WalkContext extends InvocationContext {
  /** Names the enclosing C-style for loops set to numbers and only count with. */
  counters: ReadonlySet<string>;
  line: LineFacts;
}

/** Facts about the whole line, its nested scripts included. */
interface LineFacts {
  /** Every script parsed: the line itself and the scripts nested in it. */
  sources: string[];
  /** The counters of every loop understood as counting. */
  counters: Set<string>;
  /** The arithmetic understood as counting: the only places a counter's name may stand. */
  counting: Set<string>;
}

export async function analyzeCommand(command: string): Promise<CommandAnalysis> {
  const analysis: CommandAnalysis = {
    commands: [],
    substitutions: [],
    writes: [],
    writeTargets: [],
    reads: [],
    unclear: [],
    notReadOnly: [],
  };
  const line: LineFacts = { sources: [], counters: new Set(), counting: new Set() };
  await loadOutputOptionSpecs();
  await analyzeInto(command, analysis, 0, line);
  checkCounters(analysis, line);
  analysis.unclear = [...new Set(analysis.unclear)];
  analysis.notReadOnly = [...new Set(analysis.notReadOnly)];
  return analysis;
}

async function analyzeInto(
  source: string,
  analysis: CommandAnalysis,
  depth: number,
  line: LineFacts,
) {
  if (depth > MAX_DEPTH) {
    analysis.unclear.push('commands nested too deeply');
    return;
  }
  line.sources.push(source);
  const parser = await getBashParser();
  const tree = parser.parse(source);
  if (!tree) {
    analysis.unclear.push('the command could not be parsed');
    return;
  }
  try {
    if (tree.rootNode.hasError) analysis.unclear.push('the command has a syntax error');
    const nested: string[] = [];
    walk(tree.rootNode, { analysis, nested, counters: new Set(), line });
    for (const script of nested) await analyzeInto(script, analysis, depth + 1, line);
  } finally {
    tree.delete();
  }
}

function walk(node: Node, context: WalkContext): void {
  const { analysis } = context;
  const unclear = (why: string) => analysis.unclear.push(why);
  if (node.children.some((child) => child?.type === '&' && !child.isNamed))
    analysis.notReadOnly.push('it leaves a command running in the background (&)');
  switch (node.type) {
    case 'command':
      addCommand(node, context);
      break;
    case 'declaration_command':
    case 'unset_command': {
      const words = node.namedChildren
        .filter((child): child is Node => child !== null)
        .map((child) =>
          child.type === 'variable_assignment' || child.type === 'variable_name'
            ? { value: child.text, literal: isPlainAssignment(child) }
            : wordValue(child),
        );
      const keyword = node.child(0)?.text ?? node.type;
      invoke([{ value: keyword, literal: true }, ...words], node.text, context, {});
      break;
    }
    case 'test_command': {
      const text = node.text;
      if (/\s-v\s/.test(text)) unclear(`${text} evaluates a variable name, subscripts included`);
      if (text.startsWith('[[')) {
        if (/\s-(eq|ne|lt|le|gt|ge)\s/.test(text))
          unclear(`${text} evaluates its operands as arithmetic, which can run commands`);
        analysis.notReadOnly.push(`${text} is a bash test that evaluates its operands`);
      }
      break;
    }
    case 'compound_statement':
      if (node.child(0)?.text === '((') arithmetic(node, context);
      break;
    case 'arithmetic_expansion':
      arithmetic(node, context);
      break;
    case 'c_style_for_statement': {
      const counters = loopCounters(node, context);
      if (counters) {
        // The header only counts; the body is walked knowing its counters are numbers.
        walk(node.childForFieldName('body')!, { ...context, counters });
        return;
      }
      unclear(`${node.text.slice(0, 60)} evaluates variables as arithmetic`);
      break;
    }
    case 'expansion':
      checkExpansion(node, context);
      break;
    case 'subscript': {
      const index = node.childForFieldName('index')?.text ?? '';
      if (!/^(\d+|@|\*)$/.test(index))
        unclear(`the array subscript in ${node.text} is evaluated as arithmetic`);
      break;
    }
    case 'variable_assignment':
      checkAssignment(node, context);
      break;
    case 'for_statement': {
      // `for PATH in …` and `select PATH in …` set the variable for the body.
      const variable = node.children.find((child) => child?.type === 'variable_name');
      if (variable && EXECUTION_VARIABLES.test(variable.text))
        unclear(`the loop sets ${variable.text}, which changes what programs run`);
      break;
    }
    case 'function_definition':
      unclear(
        `it defines the function ${node.childForFieldName('name')?.text ?? ''}, which can stand in for any command`,
      );
      break;
    case 'command_substitution':
    case 'process_substitution':
      analysis.substitutions.push(node.text);
      break;
    case 'file_redirect':
      noteRedirect(node, analysis);
      break;
    case 'heredoc_body':
      lookIntoHeredoc(node, context);
      break;
    case 'word':
      oldArithmetic(node, context);
      break;
    case 'ERROR':
      unclear(`cannot understand "${node.text.slice(0, 40)}"`);
      break;
    default:
      break;
  }
  for (const child of node.namedChildren) if (child) walk(child, context);
}

function addCommand(node: Node, context: InvocationContext): void {
  const nameNode = node.childForFieldName('name');
  if (!nameNode) return; // only assignments, `FOO=1`: judged as assignments
  const words: ShellWord[] = [wordValue(nameNode)];
  for (const argument of node.childrenForFieldName('argument')) {
    if (argument) words.push(wordValue(argument));
  }
  const assignments = node.namedChildren
    .filter((child) => child?.type === 'variable_assignment')
    .map((child) => child!.text);
  invoke(words, node.text, context, { assignments });
}

function isPlainAssignment(node: Node): boolean {
  const name = node.type === 'variable_name' ? node : node.childForFieldName('name');
  return name?.type === 'variable_name' && PLAIN_IDENTIFIER.test(name.text);
}

function checkAssignment(node: Node, { analysis }: InvocationContext): void {
  const name = node.childForFieldName('name');
  // `PATH[0]=x` sets PATH itself: element 0 of a plain variable is its value.
  const variable = name?.type === 'subscript' ? name.childForFieldName('name') : name;
  if (variable?.type === 'variable_name' && EXECUTION_VARIABLES.test(variable.text)) {
    analysis.unclear.push(`it sets ${name!.text}, which changes what programs run`);
  }
  if (node.parent?.type !== 'command') {
    analysis.notReadOnly.push(`it sets the variable ${name?.text ?? node.text}`);
  }
}

/**
 * Arithmetic evaluates variables' values as expressions, and those can hold `$(…)` or
 * subscripts that run commands (`a[$(touch x)]`): only numbers, operators and the
 * counters of enclosing loops are understood.
 */
function arithmetic(node: Node, context: WalkContext): void {
  const expression = node.text.replace(/^\$?\(\(|^\$\[|\)\)$|\]$/g, '');
  if (counts(expression, context.counters)) context.line.counting.add(node.text);
  else context.analysis.unclear.push(`${node.text.slice(0, 60)} evaluates variables as arithmetic`);
}

/** `$[ … ]` the parser leaves inside a word (`${y:-$[x]}`). */
function oldArithmetic(node: Node, { analysis, counters, line }: WalkContext): void {
  const rest = node.text.replace(/\$\[([^\]$]*)\]/g, (whole, expression: string) => {
    if (!counts(expression, counters)) return whole;
    line.counting.add(whole);
    return '';
  });
  if (rest.includes('$['))
    analysis.unclear.push(`${node.text} uses $[ ], which evaluates arithmetic`);
}

/** Only computes: numbers and operators, or names of counters too. */
function counts(expression: string, counters: ReadonlySet<string>): boolean {
  if (!/[A-Za-z_$]/.test(expression)) return true;
  if (!/^[\s\w+\-*/%<>=!&|^~?:,()]*$/.test(expression)) return false;
  return (expression.match(/\w+/g) ?? []).every(
    (word) => /^(\d+|0[xX][\da-fA-F]+)$/.test(word) || counters.has(word),
  );
}

/**
 * The counters of `for ((i = 0; i < 3; i++))`: names (lower case, so none bash sets on
 * its own, such as REPLY) first set to a number, then only counted with. Undefined when
 * the header does anything else.
 */
function loopCounters(node: Node, context: WalkContext): Set<string> | undefined {
  const close = node.children.find((child) => child?.type === '))')!;
  const header = /^for\s*\(\(([^;]*);([^;]*);([^;]*)\)\)$/.exec(
    node.text.slice(0, close.endIndex - node.startIndex),
  );
  if (!header) return undefined;
  const counters = new Set(context.counters);
  for (const part of header[1]!.split(',')) {
    if (part.trim() === '') continue;
    const start = /^\s*([a-z][a-z\d_]*)\s*=(?!=)(.*)$/s.exec(part);
    if (!start || !counts(start[2]!, counters)) return undefined;
    counters.add(start[1]!);
  }
  if (!counts(header[2]!, counters) || !counts(header[3]!, counters)) return undefined;
  for (const name of counters) context.line.counters.add(name);
  context.line.counting.add(header[0]);
  return counters;
}

/**
 * A counter stays a number only while nothing else in the line sets it (`read i`,
 * `printf -v i`, `for i in`, `eval`…): a mention of its name anywhere but in counting
 * arithmetic and as `$i` or `${i}` is not understood.
 */
function checkCounters(analysis: CommandAnalysis, { sources, counters, counting }: LineFacts) {
  for (const name of counters) {
    const mention = new RegExp(`(?<![\\w$])${name}(?!\\w)`);
    for (let source of sources) {
      for (const text of counting) source = source.replaceAll(text, ' ');
      if (mention.test(source.replaceAll(`\${${name}}`, ' '))) {
        analysis.unclear.push(
          `${name}, a loop's counter, may be set to something else in the line`,
        );
        break;
      }
    }
  }
}

function checkExpansion(node: Node, { analysis }: InvocationContext): void {
  const text = node.text;
  const unclear = (why: string) => analysis.unclear.push(`${text} ${why}`);
  const assigned = /^\$\{(\w+)(\[[^\]]*\])?:?=/.exec(text)?.[1];
  if (assigned && EXECUTION_VARIABLES.test(assigned))
    unclear(`sets ${assigned} when it is empty, which changes what programs run`);
  if (text.startsWith('${!')) unclear('expands a variable named by another variable');
  else if (/@\w\}$/.test(text)) unclear('transforms a value (@P runs the prompt expansion)');
  else {
    const offset = /^\$\{#?[\w@*#?$!-]+(\[[^\]]*\])?:(?![-=?+])(.*)\}$/s.exec(text);
    if (offset && /[A-Za-z_$]/.test(offset[2] ?? ''))
      unclear('takes a substring at an offset evaluated as arithmetic');
  }
}

/** A here-document fed to a shell is a script: its commands are judged too. */
function lookIntoHeredoc(node: Node, { nested }: InvocationContext): void {
  const statement = node.parent?.parent;
  const body =
    statement?.type === 'redirected_statement' ? statement.childForFieldName('body') : null;
  const program =
    body?.type === 'command' ? body.childForFieldName('name')?.text.replace(/\\/g, '') : '';
  if (program && SHELLS.has(program.split('/').pop() ?? '')) nested.push(node.text);
}

function noteRedirect(node: Node, analysis: CommandAnalysis): void {
  const operator = node.children.find((child) => child && !child.isNamed)?.text ?? '';
  const destination = node.childForFieldName('destination');
  const target = destination ? wordValue(destination) : { value: '', literal: false };
  if (operator === '<&-' || operator === '>&-') return; // closes a descriptor
  if (operator === '<&' || operator === '>&') {
    // Duplicating or closing a descriptor writes no file; `>&name` writes to the file `name`.
    if (target.literal && /^(\d+|-)$/.test(target.value)) return;
    if (operator.startsWith('<')) return;
  }
  if (!operator.includes('>')) {
    analysis.reads.push(target);
    return;
  }
  if (target.literal && target.value === '/dev/null') return;
  analysis.writes.push(target.value || destination?.text || '?');
  analysis.writeTargets.push(
    target.value ? target : { value: destination?.text ?? '?', literal: false },
  );
}
