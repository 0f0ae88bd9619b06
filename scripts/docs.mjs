/**
 * `npm run docs`: writes the reference pages in docs/reference/ from the code itself, so they
 * cannot drift: settings keys from the settings schema, flags from the command's own help (the
 * definitions commander prints), tools from the registry's declarations, slash commands from
 * the terminal's catalogue, hook events from the schema's hooks object, and the variables that
 * change which program a command runs from the shell's own table.
 * `node scripts/docs.mjs --check` writes nothing and exits 1 naming each page that is out of
 * date (packages/cli/test/docs-reference.test.ts runs it). Needs the build (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'docs', 'reference');
const CLI = path.join(REPO, 'packages', 'cli', 'bin', 'toolhost.js');
const HEADER = (what) =>
  `<!-- Written by \`npm run docs\` from ${what}; do not edit by hand. -->\n`;

// Pages must not depend on who runs this: an empty HOME and an empty folder as the workspace.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolhost-docs-'));
const home = path.join(scratch, 'home');
const workspace = path.join(scratch, 'workspace');
mkdirSync(home);
mkdirSync(workspace);
const environment = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|QWEN|TOOLHOST|DASHSCOPE)_/.test(name),
  ),
);
Object.assign(environment, { HOME: home, NO_COLOR: '1', COLUMNS: '100' });
delete environment.FORCE_COLOR;
// The registry below is built in this process: it reads the same empty HOME.
process.env.HOME = home;

const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

function settingsPage() {
  const schema = JSON.parse(
    readFileSync(path.join(REPO, 'packages/core/schemas/settings.schema.json'), 'utf8'),
  );
  const resolve = (node) => {
    if (!node?.$ref) return node;
    const target = schema.definitions[node.$ref.split('/').pop()];
    return { ...target, ...node, $ref: undefined };
  };
  const typeOf = (node) => {
    if (node.enum) return node.enum.map((value) => JSON.stringify(value)).join(' \\| ');
    if (node.type === 'array') return `${typeOf(resolve(node.items ?? {}))}[]`;
    if (Array.isArray(node.type)) return node.type.join(' \\| ');
    if (node.oneOf || node.anyOf)
      return (node.oneOf ?? node.anyOf).map((part) => typeOf(resolve(part))).join(' \\| ');
    return node.type ?? 'any';
  };
  const rows = [];
  const walk = (properties, prefix) => {
    for (const [key, raw] of Object.entries(properties)) {
      if (key === '$schema') continue;
      const node = resolve(raw);
      const name = `${prefix}${key}`;
      if (node.type === 'object' && node.properties) {
        rows.push([name, 'object', node.description]);
        walk(node.properties, `${name}.`);
      } else rows.push([name, typeOf(node), node.description]);
    }
  };
  walk(schema.properties, '');
  return [
    HEADER('packages/core/schemas/settings.schema.json'),
    '# Settings keys',
    '',
    `${cell(schema.description)} \`toolhost settings schema\` prints the whole JSON Schema.`,
    '',
    '| key | type | what it does |',
    '| --- | --- | --- |',
    ...rows.map(([name, type, description]) => `| \`${name}\` | ${type} | ${cell(description)} |`),
    '',
  ].join('\n');
}

function help(args) {
  return execFileSync(process.execPath, [CLI, ...args, '--help'], {
    cwd: workspace,
    env: environment,
    encoding: 'utf8',
  }).trimEnd();
}

/** Subcommand names from a help text's "Commands:" section (help itself left out). */
function subcommands(text) {
  const section = text.split(/\n(?=[A-Z][a-z]+:\n)/).find((part) => part.startsWith('Commands:'));
  if (!section) return [];
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((match) => match[1])
    .filter((name) => name !== 'help');
}

function flagsPage() {
  const sections = [];
  const visit = (args) => {
    const text = help(args);
    sections.push(
      `## toolhost${args.map((arg) => ` ${arg}`).join('')}\n\n\`\`\`text\n${text}\n\`\`\``,
    );
    for (const name of subcommands(text)) visit([...args, name]);
  };
  visit([]);
  return [
    HEADER("each command's own --help (its commander definition)"),
    '# Flags and subcommands',
    '',
    'Every command and subcommand with its options, as `--help` prints them.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

async function toolsPage() {
  const core = await import(pathToFileURL(path.join(REPO, 'packages/core/dist/index.js')).href);
  const { config } = core.Config.load({ root: workspace });
  const registry = core.createToolRegistry(config);
  const blocks = registry.getAllTools().map((tool) => {
    const schema = tool.schema.parametersJsonSchema ?? {};
    const required = new Set(schema.required ?? []);
    const rows = Object.entries(schema.properties ?? {}).map(
      ([name, property]) =>
        `| \`${name}\` | ${cell(property.type ?? (property.enum ? 'enum' : 'any'))} | ${required.has(name) ? 'yes' : ''} | ${cell(property.description)} |`,
    );
    return [
      `## \`${tool.name}\` (${tool.displayName}, ${tool.kind})`,
      '',
      tool.description.trim(),
      '',
      ...(rows.length > 0
        ? ['| parameter | type | required | what it is |', '| --- | --- | --- | --- |', ...rows]
        : ['No parameters.']),
    ].join('\n');
  });
  return [
    HEADER("the registry's function declarations (what a model is sent)"),
    '# Tools',
    '',
    'The built-in tools as a model sees them in a folder with default settings. The agent adds',
    '`task`, `skill` (when skills are found) and `tool_search` (when MCP tools are held back);',
    'MCP servers and a discovery command add their own.',
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}

async function slashCommandsPage() {
  const { BUILTIN_COMMANDS } = await import(
    pathToFileURL(path.join(REPO, 'packages/cli/dist/ui/commands/command-catalog.js')).href
  );
  const rows = BUILTIN_COMMANDS.map(
    (command) =>
      `| \`/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}\` | ${(command.aliases ?? []).map((alias) => `\`/${alias}\``).join(', ')} | ${cell(command.description)} |`,
  );
  return [
    HEADER("the terminal's built-in command catalogue"),
    '# Slash commands',
    '',
    "The interactive terminal's built-in commands. Command files (`.toolhost/commands`,",
    "`.qwen/commands`, `.gemini/commands`, `.claude/commands`) and MCP servers' prompts add more.",
    '',
    '| command | aliases | what it does |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

function hookEventsPage() {
  const schema = JSON.parse(
    readFileSync(path.join(REPO, 'packages/core/schemas/settings.schema.json'), 'utf8'),
  );
  const rows = Object.entries(schema.properties.hooks.properties).map(
    ([event, node]) => `| \`${event}\` | ${cell(node.description)} |`,
  );
  return [
    HEADER('the hooks object of packages/core/schemas/settings.schema.json'),
    '# Hook events',
    '',
    `${cell(schema.properties.hooks.description)} See [permission rules, trust and hooks](../rules-trust-hooks.md).`,
    '',
    '| event | when it runs, and what a hook may do |',
    '| --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

async function shellVariablesPage() {
  const { EXECUTION_VARIABLE_TABLE } = await import(
    pathToFileURL(path.join(REPO, 'packages/core/dist/shell/execution-variables.js')).href
  );
  return [
    HEADER('packages/core/src/shell/execution-variables.ts'),
    '# Variables that change which program runs',
    '',
    'Setting one of these anywhere in a command line (`X=… cmd`, `env X=… cmd`, `export X`,',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${X:=…}, shown as written
    '`read X`, `for X in`, `${X:=…}`) makes the line unclear: it asks, even under an allow rule,',
    'and it is refused while any deny rule for commands exists. A `*` stands for any characters',
    'of a name. See [the shell and its sandbox](../shell-and-sandbox.md).',
    '',
    '| variable | why it changes what runs |',
    '| --- | --- |',
    ...EXECUTION_VARIABLE_TABLE.map(({ name, why }) => `| \`${name}\` | ${cell(why)} |`),
    '',
  ].join('\n');
}

const check = process.argv.includes('--check');
try {
  const pages = {
    'settings.md': settingsPage(),
    'flags.md': flagsPage(),
    'tools.md': await toolsPage(),
    'slash-commands.md': await slashCommandsPage(),
    'hook-events.md': hookEventsPage(),
    'shell-variables.md': await shellVariablesPage(),
  };
  const stale = [];
  mkdirSync(OUT, { recursive: true });
  for (const [name, text] of Object.entries(pages)) {
    const file = path.join(OUT, name);
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {}
    if (current === text) continue;
    if (check) stale.push(`docs/reference/${name}`);
    else writeFileSync(file, text);
  }
  if (stale.length > 0) {
    console.error(`Out of date (run npm run docs): ${stale.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
