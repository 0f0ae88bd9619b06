import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/helpers/processes.js';
import { runShellCommand, shellProgram, stripAnsi } from './shell-execution.js';

describe('shellProgram', () => {
  it('uses bash where it is installed', () => {
    expect(shellProgram().file).toMatch(/bash$/);
  });

  it('falls back to sh when bash is missing, and sh runs commands', async () => {
    const sh = shellProgram(['/nonexistent/bash']);
    expect(sh.file).toBe('/bin/sh');
    const result = await runShellCommand('echo "from $0"', {
      cwd: '/',
      env: { PATH: process.env.PATH },
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      shell: sh,
    });
    expect(result.output.trim()).toBe('from /bin/sh');
    expect(result.exitCode).toBe(0);
  });
});

describe('stripAnsi', () => {
  it('removes colours, cursor moves and titles, and turns bare carriage returns into new lines', () => {
    expect(stripAnsi('\u001b[1;31mred\u001b[0m \u001b[2K\u001b]0;title\u0007done\rnext\r\n')).toBe(
      'red done\nnext\r\n',
    );
  });
});

describe('runShellCommand', () => {
  it('shows output that came within the update interval once it ends, while the command goes quiet', async () => {
    const updates: string[] = [];
    const controller = new AbortController();
    const running = runShellCommand('printf first; sleep 0.1; printf %s -second; sleep 30', {
      cwd: '/',
      env: { PATH: process.env.PATH },
      timeoutMs: 60_000,
      signal: controller.signal,
      updateIntervalMs: 500,
      onOutput: (output) => updates.push(output),
    });
    try {
      // "-second" came 0.1 s after "first", within the interval; nothing follows it.
      expect(await waitUntil(() => updates.includes('first-second'), 10_000)).toBe(true);
      expect(updates[0]).toBe('first');
    } finally {
      controller.abort();
      await running;
    }
    const shown = updates.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(updates.length).toBe(shown);
  });

  it('keeps the head and tail of output beyond its memory budget', async () => {
    const result = await runShellCommand('seq 1 200000', {
      cwd: '/',
      env: { PATH: process.env.PATH },
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      maxBytes: 100_000,
    });
    expect(result.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('200000')).toBe(true);
    expect(result.output).toMatch(/\[\.\.\. \d+ bytes of output not kept \.\.\.\]/);
    expect(result.droppedBytes).toBeGreaterThan(0);
  });

  it('keeps order when small chunks follow the overflow', async () => {
    // Big writes fill the head, then small, slow writes must land in the tail, in order.
    const result = await runShellCommand(
      'head -c 150000 /dev/zero | tr "\\0" a; echo; for i in 1 2 3; do echo "late $i"; sleep 0.05; done',
      {
        cwd: '/',
        env: { PATH: process.env.PATH },
        timeoutMs: 30_000,
        signal: new AbortController().signal,
        maxBytes: 100_000,
      },
    );
    expect(result.output.trimEnd().endsWith('late 1\nlate 2\nlate 3')).toBe(true);
    expect(result.output.indexOf('late 1')).toBeGreaterThan(
      result.output.indexOf('bytes of output not kept'),
    );
  });

  it('reports a shell that cannot start', async () => {
    const result = await runShellCommand('true', {
      cwd: '/nonexistent-folder',
      env: {},
      timeoutMs: 1_000,
      signal: new AbortController().signal,
    });
    expect(result.spawnError).toMatch(/ENOENT/);
  });
});
