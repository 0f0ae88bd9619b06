/**
 * Builds the benchmark corpus in bench/corpus (not committed; rebuilt when missing or of
 * an older version): a git repository of real and generated code, committed, so git grep
 * reads it from its index as it would a real project.
 * - vendor/: the sources of several large npm packages installed side by side (three,
 *   rxjs, date-fns, lodash-es, @mui/material, monaco-editor, @google/gemini-cli-core and
 *   their dependencies, from bench/node_modules), tracked;
 * - node_modules/: toolhost's own installed dependencies, ignored by .gitignore;
 * - packages/: seeded generated modules (24,000 files) with rare markers to search for;
 * - bench-read/: exactly 1,000 files for read_many_files; wide/: a folder of 10,000 entries.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS = path.join(HERE, 'corpus');
const MARKER = path.join(CORPUS, '.git', 'toolhost-bench-complete');
const VERSION = '4';

if (existsSync(MARKER) && readFileSync(MARKER, 'utf8') === VERSION) {
  console.log(`corpus ready at ${CORPUS}`);
  process.exit(0);
}
rmSync(CORPUS, { recursive: true, force: true });
mkdirSync(CORPUS, { recursive: true });
execFileSync('git', ['init', '-q', CORPUS]);
writeFileSync(path.join(CORPUS, '.gitignore'), 'node_modules/\n*.log\n');

// Real code. Symbolic links (.bin, workspace links) are left out.
const noLinks = (source) =>
  !lstatSync(source).isSymbolicLink() && !source.endsWith('.package-lock.json');
cpSync(path.join(HERE, 'node_modules'), path.join(CORPUS, 'vendor'), {
  recursive: true,
  filter: noLinks,
});
cpSync(path.join(HERE, '..', 'node_modules'), path.join(CORPUS, 'node_modules'), {
  recursive: true,
  filter: noLinks,
});

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = (items) => items[Math.floor(random() * items.length)];
const WORDS = [
  'user',
  'order',
  'cache',
  'token',
  'request',
  'handler',
  'config',
  'state',
  'event',
  'stream',
  'buffer',
  'session',
  'router',
  'payload',
  'record',
  'index',
  'query',
  'result',
  'client',
  'server',
];
const cap = (word) => word[0].toUpperCase() + word.slice(1);

function moduleSource(id, targetBytes) {
  const lines = [
    `// module ${id}`,
    `import { ${pick(WORDS)}${cap(pick(WORDS))} } from './${pick(WORDS)}';`,
    '',
  ];
  let size = 0;
  while (size < targetBytes) {
    const name = `${pick(WORDS)}${cap(pick(WORDS))}${Math.floor(random() * 1000)}`;
    const block = [
      `export function handle${cap(name)}(input: ${cap(pick(WORDS))}): ${cap(pick(WORDS))} {`,
      `  const ${pick(WORDS)} = input.${pick(WORDS)} ?? ${Math.floor(random() * 100000)};`,
      random() < 0.002
        ? '  // TOOLHOST_NEEDLE: a rare marker the literal search looks for'
        : `  // ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`,
      `  return { ...input, ${pick(WORDS)}: ${pick(WORDS)} };`,
      '}',
      '',
    ].join('\n');
    lines.push(block);
    size += block.length;
  }
  return lines.join('\n');
}

let files = 0;
let bytes = 0;
function write(relative, content) {
  const file = path.join(CORPUS, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  files++;
  bytes += Buffer.byteLength(content);
}

// 24 packages x 1,000 modules of about 10 KB.
for (let pkg = 0; pkg < 24; pkg++) {
  for (let mod = 0; mod < 1000; mod++) {
    const ext = mod % 10 === 0 ? 'md' : mod % 3 === 0 ? 'js' : 'ts';
    const dir = `packages/pkg-${pkg}/src/${pick(WORDS)}`;
    write(
      `${dir}/mod-${mod}.${ext}`,
      moduleSource(`${pkg}/${mod}`, 6000 + Math.floor(random() * 8000)),
    );
  }
}
// Exactly 1,000 files for read_many_files.
for (let i = 0; i < 1000; i++)
  write(`bench-read/file-${String(i).padStart(4, '0')}.ts`, moduleSource(`read/${i}`, 2500));
// A folder of 10,000 entries for list_directory.
for (let i = 0; i < 10000; i++)
  write(`wide/entry-${String(i).padStart(5, '0')}.txt`, `entry ${i}\n`);

execFileSync('git', ['add', '-A'], { cwd: CORPUS, stdio: 'ignore' });
execFileSync(
  'git',
  ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'corpus'],
  { cwd: CORPUS, stdio: 'ignore' },
);
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: CORPUS, maxBuffer: 1 << 28 })
  .toString()
  .split('\0')
  .filter(Boolean).length;
writeFileSync(MARKER, VERSION);
console.log(
  `corpus built at ${CORPUS}: ${tracked} tracked files (${files} generated, ${(bytes / 1e6).toFixed(0)} MB), plus an ignored node_modules`,
);
