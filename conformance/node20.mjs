// The suite (0.1.16) imports fs.globSync, which Node has from 22 on; it uses it only to
// gather result files in its tier-check command, which run.mjs never calls. On Node 20 the
// suite's own `fs` import is pointed at fs-shim.mjs, which adds a globSync that says so.
// Loaded with `node --import ./node20.mjs`.

import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./node20-hooks.mjs', import.meta.url);
