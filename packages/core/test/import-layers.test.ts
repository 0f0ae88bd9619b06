/**
 * The layering the folders promise (docs/architecture.md): no import cycles, type-only ones
 * included, and no import from a lower layer to a higher one, in both packages. The tables
 * are in scripts/import-layers.mjs; `node scripts/import-layers.mjs` prints the offenders.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_LAYERS, CORE_LAYERS, checkPackage } from '../../../scripts/import-layers.mjs';

const repo = path.resolve(import.meta.dirname, '../../..');

describe('imports follow the layers', () => {
  it.each([
    ['core', CORE_LAYERS],
    ['cli', CLI_LAYERS],
  ] as const)(
    '%s: no cycles and nothing imported from a higher or the same layer',
    (name, table) => {
      const root = path.join(repo, 'packages', name, 'src');
      expect(checkPackage(root, table)).toEqual({ cycles: [], violations: [] });
    },
  );

  it('every folder of core/src has its place in the table', () => {
    const placed = new Set(CORE_LAYERS.flat());
    const folders = fs
      .readdirSync(path.join(repo, 'packages/core/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !placed.has(folder))).toEqual([]);
  });

  it('docs/architecture.md shows the same order', () => {
    const page = fs.readFileSync(path.join(repo, 'docs/architecture.md'), 'utf8');
    const shown = CORE_LAYERS.map((units) => units.map((u) => `\`${u}/\``).join(', '));
    let from = 0;
    for (const line of shown) {
      const at = page.indexOf(line, from);
      expect(at, `docs/architecture.md lists the layer ${line} in order`).toBeGreaterThan(-1);
      from = at + line.length;
    }
  });
});

describe('the check itself', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolhost-layers-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('low/a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
  write('low/b.ts', "import type { A } from './a.js';\nexport type B = A | 1;\n");
  write('low/c.ts', "export { up } from '../high/up.js';\n");
  write('high/up.ts', "export const up = () => import('../low/b.js');\n");
  write('high/up.test.ts', "import '../low/c.js';\n");

  it('finds a cycle of type-only imports and an upward re-export, and ignores tests', () => {
    expect(checkPackage(dir, [['low'], ['high']])).toEqual({
      cycles: [['low/a.ts', 'low/b.ts']],
      violations: ['low/c.ts -> high/up.ts (low -> high)'],
    });
  });

  it('counts an import between two folders of one layer', () => {
    expect(checkPackage(dir, [['low', 'high']]).violations).toEqual([
      'high/up.ts -> low/b.ts (high -> low)',
      'low/c.ts -> high/up.ts (low -> high)',
    ]);
  });
});
