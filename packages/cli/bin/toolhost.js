#!/usr/bin/env node
// The installed command. It lives outside dist/ so that npm can link it during `npm ci`,
// before the `prepare` script has built dist/.
//
// It runs the bundle (bundle/, built by `npm run build` after tsc) when that is at least as
// new as the compiled output, and the compiled output itself otherwise: a developer who
// ran only tsc still runs the code they just compiled.
import { existsSync, readFileSync, statSync } from 'node:fs';
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs; Node 20 has no such cache and skips this.
module.enableCompileCache?.();

const here = new URL('..', import.meta.url);
const compiled = new URL('dist/index.js', here);
const bundled = new URL('bundle/index.js', here);

function modified(url) {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The bundle, unless tsc has written something newer since it was built. */
function bundleIsCurrent() {
  const bundleTime = modified(bundled);
  if (bundleTime === undefined) return false;
  for (const info of ['tsconfig.tsbuildinfo', '../core/tsconfig.tsbuildinfo']) {
    const time = modified(new URL(info, here));
    if (time !== undefined && time > bundleTime) return false;
  }
  return true;
}

async function runCommand() {
  if (bundleIsCurrent()) {
    await import(bundled.href);
  } else if (existsSync(compiled)) {
    await import(compiled.href);
  } else {
    process.stderr.write(
      'toolhost: it is not built yet; run "npm run build" in the toolhost folder.\n',
    );
    process.exit(70);
  }
}

// The version alone is answered here, without loading the command's code (a third of the
// time `toolhost --version` took); the parser answers the same flag the same way.
const onlyArgument = process.argv.length === 3 ? process.argv[2] : undefined;
if (onlyArgument === '--version' || onlyArgument === '-v') {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));
  process.stdout.write(`${version}\n`);
} else {
  await runCommand();
}
