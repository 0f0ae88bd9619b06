#!/usr/bin/env node
import { runProgram } from './program.js';

runProgram(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Only bugs reach here: expected failures are answered with a message and an exit code.
    process.stderr.write(
      `toolhost: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
