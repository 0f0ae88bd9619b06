/**
 * A small repository-shaped tree for search tools: nested .gitignore files, a
 * .toolhostignore, hidden files, a binary file, a symlink, and text to find.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, type TempWorkspace } from './temp-workspace.js';

export function writeSearchFixture(root: string): void {
  const files: Record<string, string | Buffer> = {
    '.gitignore': 'dist/\n*.log\n',
    '.toolhostignore': 'secrets/\n',
    'README.md': '# Demo\nThe TODO list lives in src.\n',
    'src/app.ts': 'export function main() {\n  // TODO: wire the router\n  return run();\n}\n',
    'src/util.ts': 'export const run = () => 42;\n// todo lower case\n',
    'src/components/Button.tsx': 'export const Button = () => <button>TODO</button>;\n',
    'src/components/.hidden.ts': '// TODO hidden file\n',
    'src/legacy/.gitignore': 'generated.ts\n!keep.log\n',
    'src/legacy/generated.ts': '// TODO generated\n',
    'src/legacy/keep.log': 'TODO kept log\n',
    'src/legacy/old.js': 'var x = 1; // TODO old\n',
    'dist/bundle.js': '// TODO built\n',
    'debug.log': 'TODO log\n',
    'secrets/key.txt': 'TODO secret\n',
    'docs/guide.md': 'Nothing to find here.\n',
    'app/[id]/page.tsx': 'export default function Page() { return null; } // TODO page\n',
    'image.bin': Buffer.from([0x00, 0x01, 0x54, 0x4f, 0x44, 0x4f, 0x00, 0xff]),
  };
  execFileSync('git', ['init', '-q', root]);
  writeFileSync(path.join(root, '.git', 'TODO-notes'), 'TODO in git internals\n');
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  symlinkSync(path.join(root, 'src', 'app.ts'), path.join(root, 'src', 'link-to-app.ts'));
}

/**
 * A workspace holding the fixture. Read-only suites build one in beforeAll; a test that
 * changes files takes its own through withOwnSearchWorkspace.
 */
export function makeSearchWorkspace(
  params: Parameters<typeof makeWorkspace>[0] = {},
): TempWorkspace {
  const made = makeWorkspace(params);
  writeSearchFixture(made.root);
  return made;
}

/** Runs a test that changes files in a fixture of its own, removed afterwards. */
export async function withOwnSearchWorkspace(
  test: (own: TempWorkspace) => Promise<void>,
  params: Parameters<typeof makeWorkspace>[0] = {},
): Promise<void> {
  const own = makeSearchWorkspace(params);
  try {
    await test(own);
  } finally {
    await own.config.dispose();
    own.cleanup();
  }
}

/** The files every engine should list with both kinds of ignore rules on. */
export const VISIBLE_FILES = [
  '.gitignore',
  '.toolhostignore',
  'README.md',
  'app/[id]/page.tsx',
  'docs/guide.md',
  'image.bin',
  'src/app.ts',
  'src/components/.hidden.ts',
  'src/components/Button.tsx',
  'src/legacy/.gitignore',
  'src/legacy/keep.log',
  'src/legacy/old.js',
  'src/util.ts',
];

/** Where every engine finds `TODO` in the fixture, as "file:line", in path order. */
export const TODO_HITS = [
  'README.md:2',
  'app/[id]/page.tsx:1',
  'src/app.ts:2',
  'src/components/.hidden.ts:1',
  'src/components/Button.tsx:1',
  'src/legacy/keep.log:1',
  'src/legacy/old.js:1',
];

/** "file:line" for every match line of a grep_search result. */
export function grepHits(text: unknown): string[] {
  const found: string[] = [];
  let file = '';
  for (const line of String(text).split('\n').slice(1)) {
    const match = /^ {2}(\d+): /.exec(line);
    if (match) found.push(`${file}:${match[1]}`);
    else if (line && !line.startsWith('[')) file = line;
  }
  return found;
}
