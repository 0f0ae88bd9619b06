// Which way imports may go, for both packages, and the check that they do.
//
// Each package is cut into units (a folder under src/, or a deeper folder where that one
// has its own place), and the units are stacked in layers, lowest first. A file may import
// its own unit and units of lower layers, never a unit of its own layer or a higher one.
// Type-only imports count: a cycle of types still ties the folders together. Files that no
// unit names (the package's own index.ts) sit on top. `node scripts/import-layers.mjs`
// prints what breaks the rules; packages/core/test/import-layers.test.ts fails on it.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** `@toolhost/core`, lowest layer first. */
export const CORE_LAYERS = [
  ['contract'],
  ['workspace'],
  ['utils'],
  ['web', 'trust', 'shell', 'extensions', 'models'],
  ['shell/sandbox'],
  ['config'],
  ['permissions', 'endpoints'],
  ['memory'],
  ['tools'],
  ['hooks', 'skills'],
  ['scheduler'],
  ['providers', 'mcp'],
  ['agent'],
  ['conversation'],
  ['entry'],
];

/** The `toolhost` command: the front ends share `conversation/`, and never each other. */
export const CLI_LAYERS = [
  ['errors.ts', 'local-time.ts', 'seen-text.ts', 'browser.ts', 'render.ts'],
  [
    'approval-choices.ts',
    'help-text.ts',
    'workspace-options.ts',
    'mcp-config-flag.ts',
    'mistyped-command.ts',
  ],
  ['workspace-tools.ts'],
  ['conversation'],
  ['agent', 'stream-input', 'acp', 'ui'],
  ['commands'],
];

/** @param {string} root @returns {string[]} */
function sourceFiles(root) {
  /** @type {string[]} */
  const files = [];
  const walk = (/** @type {string} */ dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name))
        files.push(full);
    }
  };
  walk(root);
  return files;
}

/** Every relative import (static, dynamic, type-only, re-export) of each file under root. */
/** @param {string} root @returns {Map<string, string[]>} */
export function importGraph(root) {
  const files = sourceFiles(root);
  const known = new Set(files);
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const stem = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '');
      const target = [`${stem}.ts`, `${stem}.tsx`, path.join(stem, 'index.ts')].find((f) =>
        known.has(f),
      );
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Groups of files that import each other, directly or round about (Tarjan's algorithm). */
/** @param {Map<string, string[]>} graph @returns {string[][]} */
export function importCycles(graph) {
  let next = 0;
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const cycles = [];
  /** @param {string} file */
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(Number(low.get(file)), Number(low.get(target))));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(Number(low.get(file)), Number(index.get(target))));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    /** @type {string[]} */
    const group = [];
    /** @type {string | undefined} */
    let member;
    do {
      member = /** @type {string} */ (stack.pop());
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The unit a file belongs to: the longest unit name its path starts with. */
/** @param {string} relative @param {string[]} units @returns {string | undefined} */
function unitOf(relative, units) {
  /** @type {string | undefined} */
  let best;
  for (const unit of units) {
    const matches = unit.endsWith('.ts') ? relative === unit : relative.startsWith(`${unit}/`);
    if (matches && (!best || unit.length > best.length)) best = unit;
  }
  return best;
}

/** Imports that go sideways or upwards, as "from -> to (unit -> unit)". */
/**
 * @param {string} root @param {Map<string, string[]>} graph @param {string[][]} layers
 * @returns {string[]}
 */
export function layerViolations(root, graph, layers) {
  const layerOf = new Map(layers.flatMap((units, level) => units.map((u) => [u, level])));
  const units = [...layerOf.keys()];
  const top = layers.length;
  /** @type {string[]} */
  const violations = [];
  for (const [file, targets] of graph) {
    const from = path.relative(root, file);
    const fromUnit = unitOf(from, units);
    for (const target of targets) {
      const to = path.relative(root, target);
      const toUnit = unitOf(to, units);
      if (fromUnit === toUnit) continue;
      const fromLevel = fromUnit === undefined ? top : (layerOf.get(fromUnit) ?? top);
      const toLevel = toUnit === undefined ? top : (layerOf.get(toUnit) ?? top);
      if (toLevel >= fromLevel) {
        violations.push(`${from} -> ${to} (${fromUnit ?? 'top'} -> ${toUnit ?? 'top'})`);
      }
    }
  }
  return violations.sort();
}

/**
 * @param {string} root the package's src folder
 * @param {string[][]} layers lowest first
 * @returns {{ cycles: string[][], violations: string[] }}
 */
export function checkPackage(root, layers) {
  const graph = importGraph(root);
  const rel = (/** @type {string} */ file) => path.relative(root, file);
  return {
    cycles: importCycles(graph).map((group) => group.map(rel)),
    violations: layerViolations(root, graph, layers),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  let problems = 0;
  for (const [name, layers] of /** @type {const} */ ([
    ['core', CORE_LAYERS],
    ['cli', CLI_LAYERS],
  ])) {
    const { cycles, violations } = checkPackage(path.join(repo, 'packages', name, 'src'), layers);
    for (const group of cycles) console.log(`${name}: cycle: ${group.join(' -> ')}`);
    for (const v of violations) console.log(`${name}: upward: ${v}`);
    problems += cycles.length + violations.length;
  }
  console.log(problems === 0 ? 'imports follow the layers' : `${problems} problems`);
  process.exitCode = problems === 0 ? 0 : 1;
}
