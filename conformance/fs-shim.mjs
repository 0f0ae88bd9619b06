// node:fs plus the globSync of Node 22, for the conformance suite on Node 20 (see node20.mjs).
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export function globSync(pattern) {
  throw new Error(
    `fs.globSync("${pattern}") needs Node 22; run.mjs does not use the suite's tier-check`,
  );
}
