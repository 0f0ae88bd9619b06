/**
 * Every package the shipped code imports is one its own package.json declares. npm's flat
 * node_modules forgives a missing declaration (the package is found anyway, hoisted for a
 * neighbour); a global install, pnpm's strict layout or another version of a neighbour does
 * not. So each import in each package's dist/ (static, dynamic, or required on first use)
 * must name a Node built-in, the package itself, or one of its dependencies.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const PACKAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What a compiled file imports: `import … from`, `export … from`, `import()`, `require()`. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      // `require`, or `requireHere` as the modules that require on first use name it.
      const isRequire = ts.isIdentifier(callee) && /^require(Here)?$/.test(callee.text);
      if (isImport || isRequire) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function compiledFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => path.join(dir, name));
}

describe.each(['core', 'cli'])('@toolhost/%s', (name) => {
  it('declares every package its compiled code imports', () => {
    const folder = path.join(PACKAGES, name);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    const declared = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
    const undeclared = new Set<string>();
    let imports = 0;
    for (const file of compiledFiles(path.join(folder, 'dist'))) {
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.') || isBuiltin(specifier)) continue;
        imports++;
        const imported = packageOf(specifier);
        if (!declared.has(imported)) undeclared.add(`${imported} (${path.relative(folder, file)})`);
      }
    }
    expect(imports).toBeGreaterThan(5);
    expect([...undeclared]).toEqual([]);
  });
});
