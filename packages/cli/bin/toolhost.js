#!/usr/bin/env node
// The installed command. It lives outside dist/ so that npm can link it during `npm ci`,
// before the `prepare` script has built dist/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'toolhost: it is not built yet; run "npm run build" in the toolhost folder.\n',
  );
  process.exit(70);
}
await import(entry.href);
