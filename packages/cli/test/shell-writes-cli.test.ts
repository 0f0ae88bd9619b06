/**
 * The installed command, driven headless by the scripted model in yolo mode with the
 * sandbox as it is configured by default: programs that create or change the files they
 * are given follow the person's Edit ask and deny rules (the covered file is never
 * created), and without Edit rules the same commands still run unasked. A `Bash(cp:*)`
 * allow rule does not let `cp` overwrite or create a file an Edit deny rule covers.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCliAsync } from './run-cli.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
  mkdirSync(`${dirs.root}/notes`);
  mkdirSync(`${dirs.root}/src`);
  writeFileSync(`${dirs.root}/x.txt`, 'x\n');
});
afterEach(() => dirs.cleanup());

/** Each writes `notes/NAME` in its own way. */
const WRITERS = (name: string) => [
  `touch notes/${name}`,
  `cd notes && touch ${name}`,
  `cp x.txt notes/${name}`,
  `cp x.txt src/${name} && cp -t notes src/${name}`,
  `echo hi | tee notes/${name}`,
  `dd if=x.txt of=notes/${name}`,
  `ln -s ../x.txt notes/${name}`,
  `mkdir -p notes/${name}`,
  `truncate -s 1 notes/${name}`,
  `install x.txt notes/${name}`,
];

/** Runs `lines` one tool call each, in yolo mode, with `permissions` in the user's settings. */
async function agent(lines: string[], permissions: unknown, mode = 'yolo') {
  const server = await startModelServer((_request, index) => {
    const command = lines[index];
    return command
      ? { toolCalls: [{ name: 'run_shell_command', args: { command, is_background: false } }] }
      : { text: 'Done.' };
  });
  try {
    const settings = path.join(dirs.home, '.toolhost', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, JSON.stringify({ permissions }));
    const result = await runCliAsync(['-p', 'Write the files.', '--approval-mode', mode], {
      cwd: dirs.root,
      home: dirs.home,
      env: {
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'scripted-model',
      },
    });
    const tools = server.requests.flatMap((request) =>
      request.body.messages.filter((message) => message.role === 'tool'),
    );
    return { ...result, toolText: tools.map((message) => String(message.content)).join('\n') };
  } finally {
    await server.close();
  }
}

describe('writers in yolo mode, through the installed command', () => {
  for (const list of ['ask', 'deny'] as const) {
    it(`an Edit ${list} rule keeps the covered file from being created`, async () => {
      const result = await agent(WRITERS('secret.txt'), { [list]: ['Edit(./notes/secret.txt)'] });
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(`${dirs.root}/notes/secret.txt`)).toBe(false);
      expect(result.toolText).toContain('Edit(./notes/secret.txt)');
    }, 120_000);
  }

  it('without Edit rules the same commands run unasked', async () => {
    const names = WRITERS('x').map((_, i) => `c${i}.txt`);
    const lines = names.map((name, i) => WRITERS(name)[i]!);
    const result = await agent(lines, {});
    expect(result.code, result.stderr).toBe(0);
    expect(names.filter((name) => !existsSync(`${dirs.root}/notes/${name}`))).toEqual([]);
  }, 120_000);

  it('Bash(cp:*) with an Edit deny rule on .env: cp is refused, .env kept', async () => {
    writeFileSync(`${dirs.root}/.env`, 'SECRET=1\n');
    const result = await agent(
      ['cp x.txt .env', 'cp x.txt y.txt'],
      { allow: ['Bash(cp:*)'], deny: ['Edit(.env)'] },
      'default',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(`${dirs.root}/.env`, 'utf8')).toBe('SECRET=1\n');
    expect(result.toolText).toContain('Edit(.env)');
    expect(readFileSync(`${dirs.root}/y.txt`, 'utf8')).toBe('x\n');
  }, 120_000);
});
