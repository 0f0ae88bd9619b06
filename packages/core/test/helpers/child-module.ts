/**
 * Compiles a source module (and the relative modules it imports) to JavaScript in a
 * temporary folder, so a test can run today's `src/` in a separate process it may kill,
 * without depending on a build in `dist/` that may be stale.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

export interface CompiledModule {
  /** The compiled entry module, ready for `import()` in a child process. */
  file: string;
  cleanup(): void;
}

export function compileForChild(entry: string): CompiledModule {
  const sourceRoot = path.dirname(entry);
  const out = mkdtempSync(path.join(os.tmpdir(), 'toolhost-child-'));
  const seen = new Set<string>();
  const queue = [path.resolve(entry)];
  let top = sourceRoot;
  while (queue.length > 0) {
    const source = queue.pop()!;
    if (seen.has(source)) continue;
    seen.add(source);
    const text = readFileSync(source, 'utf8');
    for (const match of text.matchAll(/from\s+'(\.{1,2}\/[^']+)\.js'/g)) {
      const imported = path.resolve(path.dirname(source), `${match[1]}.ts`);
      queue.push(imported);
      while (!imported.startsWith(`${top}${path.sep}`)) top = path.dirname(top);
    }
  }
  for (const source of seen) {
    const js = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const target = path.join(out, path.relative(top, source)).replace(/\.ts$/, '.mjs');
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, js.replace(/(from\s+'\.{1,2}\/[^']+)\.js'/g, "$1.mjs'"));
  }
  return {
    file: path.join(out, path.relative(top, path.resolve(entry))).replace(/\.ts$/, '.mjs'),
    cleanup: () => rmSync(out, { recursive: true, force: true }),
  };
}
