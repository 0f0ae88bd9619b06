/**
 * An untrusted project's AGENTS.md that fans out through `@` imports (5 levels of 40 each)
 * does not keep `toolhost -p` from reaching the model: the expansion stops at its budget,
 * the person is told which file went over, and the scripted model server gets the request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCliAsync } from './run-cli.js';

let dirs: TempDirs;
let server: ModelServer;
beforeEach(async () => {
  dirs = makeTempDirs();
  server = await startModelServer(() => ({ text: 'Answered.' }));
});
afterEach(async () => {
  await server.close();
  dirs.cleanup();
});

function write(relative: string, text: string) {
  const file = path.join(dirs.root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('memory import fan-out', () => {
  it('toolhost -p reaches the model with a warning naming the file over the budget', async () => {
    const level = (n: number) => Array.from({ length: 40 }, (_, i) => `l${n}/f${i}.md`);
    for (let n = 1; n <= 5; n++)
      for (const name of level(n))
        write(
          name,
          [`text of ${name}`, ...(n < 5 ? level(n + 1).map((x) => `@../${x}`) : [])].join('\n'),
        );
    write('AGENTS.md', ['# Project', ...level(1).map((x) => `@${x}`)].join('\n'));

    const result = await runCliAsync(['-p', 'Say something.'], {
      cwd: dirs.root,
      home: dirs.home,
      env: {
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'scripted-model',
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Answered.');
    expect(server.requests.length).toBeGreaterThan(0);
    const system = JSON.stringify(server.requests[0]?.body.messages[0]);
    expect(system).toContain('text of l1/f0.md');
    expect(result.stderr).toMatch(
      /warning: memory: \S+\/l\d\/f\d+\.md imports more than 100 files/,
    );
  });
});
