#!/usr/bin/env node
import { runProgram } from './program.js';

/** Exits once stdout and stderr have flushed, whatever child processes or sockets linger. */
function exitWith(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

runProgram(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
}).then(
  (code) => {
    // `toolhost mcp` keeps serving: it resolves only when its transport closes.
    exitWith(code);
  },
  (error: unknown) => {
    // Only bugs reach here: expected failures are answered with a message and an exit code.
    process.stderr.write(
      `toolhost: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    exitWith(70);
  },
);
