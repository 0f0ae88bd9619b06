// Moves modules (or whole folders) inside packages/core/src with git mv, and rewrites every
// relative import of them in both packages, tests included, so a layering change is one
// command rather than a hand edit of each importer. A module's tests move with it.
//   node scripts/move-module.mjs core/content.ts contract/content.ts [from to ...]
//   node scripts/move-module.mjs core scheduler
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const base = path.resolve('packages/core/src');
const args = process.argv.slice(2);
const moves = new Map();
for (let i = 0; i < args.length; i += 2) {
  const from = path.join(base, args[i]),
    to = path.join(base, args[i + 1]);
  if (fs.statSync(from).isDirectory()) {
    for (const f of execSync(`git ls-files ${from}`, { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)) {
      const abs = path.resolve(f);
      moves.set(abs, path.join(to, path.relative(from, abs)));
    }
  } else {
    moves.set(from, to);
    for (const ext of ['.test.ts', '.test.tsx']) {
      const t = from.replace(/\.tsx?$/, ext);
      if (fs.existsSync(t)) moves.set(t, to.replace(/\.tsx?$/, ext));
    }
  }
}
const all = execSync("git ls-files 'packages/*.ts' 'packages/*.tsx' 'packages/*.mts'", {
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
  .map((f) => path.resolve(f));
const noExt = (p) => p.replace(/\.(js|ts|tsx)$/, '');
const movedByStem = new Map([...moves].map(([a, b]) => [noExt(a), noExt(b)]));
for (const file of all) {
  const src = fs.readFileSync(file, 'utf8');
  const newFile = moves.get(file) ?? file;
  const info = ts.preProcessFile(src, true, true);
  const refs = [...info.importedFiles];
  // also vi.mock / dynamic import strings: preProcessFile covers import() ; handle vi.mock('...') via regex
  const edits = [];
  for (const r of refs) {
    if (!r.fileName.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), r.fileName);
    const stem = noExt(target);
    const newStem = movedByStem.get(stem) ?? stem;
    if (newStem === stem && newFile === file) continue;
    const ext = (r.fileName.match(/\.(js|ts|tsx)$/) || [''])[0];
    let rel = path.relative(path.dirname(newFile), newStem) + ext;
    if (!rel.startsWith('.')) rel = './' + rel;
    if (rel !== r.fileName) edits.push({ from: r.fileName, text: rel });
  }
  let out = src;
  for (const e of edits)
    for (const q of ["'", '"']) out = out.split(q + e.from + q).join(q + e.text + q);
  // vi.mock('../x.js') and similar plain string refs not seen by preProcessFile
  out = out.replace(
    /(vi\.mock\(|importOriginal<typeof import\()(['"])(\.[^'"]+)\2/g,
    (_match, pre, q, spec) => {
      const stem = noExt(path.resolve(path.dirname(file), spec));
      const newStem = movedByStem.get(stem) ?? stem;
      const ext = (spec.match(/\.(js|ts|tsx)$/) || [''])[0];
      let rel = path.relative(path.dirname(newFile), newStem) + ext;
      if (!rel.startsWith('.')) rel = './' + rel;
      return pre + q + rel + q;
    },
  );
  if (out !== src) fs.writeFileSync(file, out);
}
for (const [a, b] of moves) {
  fs.mkdirSync(path.dirname(b), { recursive: true });
  execSync(`git mv ${a} ${b}`);
}
console.log(`moved ${moves.size} files`);
