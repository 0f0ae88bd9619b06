#!/usr/bin/env node
import { isatty } from 'node:tty';
import {
  exitCleanlyOnClosedOutput,
  exitCleanlyOnSignals,
  stoppingBySignal,
} from '@toolhost/core/utils';
import { runProgram } from './program.js';

// A terminal closing (HUP) or a supervisor stopping toolhost (TERM) ends every command it
// started, as Ctrl+C does, before it exits.
exitCleanlyOnSignals({ signals: ['SIGTERM', 'SIGHUP'] });
// A reader that closes the output (`| head`) ends toolhost the same way, without a trace.
exitCleanlyOnClosedOutput([process.stdout, process.stderr]);

/** Exits once stdout and stderr have flushed, whatever child processes or sockets linger. */
function exitWith(code: number): void {
  // Stopped by a signal (or a closed output): its handler exits, with 128 + the signal,
  // once everything has ended.
  if (stoppingBySignal() !== undefined) return;
  // A write that fails found the output closed: the closed-output handler ends toolhost.
  process.stdout.write('', (error) => {
    if (!error) process.stderr.write('', () => process.exit(code));
  });
}

runProgram(process.argv.slice(2), {
  // Node makes process.stdin on first use (a socket or stream, several modules to load):
  // only the agent reads it, so `tools` and `call` never pay for it.
  get stdin() {
    return process.stdin;
  },
  stdinIsTerminal: () => isatty(0),
  stdout: process.stdout,
  stderr: process.stderr,
  exitNow: (code) => process.exit(code),
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
