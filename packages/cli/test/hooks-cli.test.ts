/**
 * Hooks as a person configures them, through the installed command: the person's own hooks
 * run around a headless session (SessionStart context reaches the model, SessionEnd runs
 * last); a project's hooks never run until the person trusts the folder (a canary file).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../core/test/helpers/model-server.js';
import { FIXTURES } from '../../core/test/helpers/temp-workspace.js';
import { modelProject } from './helpers/model-project.js';
import { runCli, runCliAsync } from './run-cli.js';

const HOOKS = path.join(FIXTURES, 'hooks');
const script = (name: string, ...args: string[]) => quote(['sh', path.join(HOOKS, name), ...args]);

const project = modelProject();

function write(file: string, value: unknown) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

async function headless(prompt: string) {
  project.server ??= await startModelServer((_request, index) =>
    index === 0
      ? { toolCalls: [{ name: 'list_directory', args: { path: project.dirs.root } }] }
      : { text: 'done' },
  );
  const env = { OPENAI_BASE_URL: project.server.baseUrl, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' };
  return runCliAsync(['-p', prompt], { cwd: project.dirs.root, home: project.dirs.home, env });
}

describe('hooks through the command', { timeout: 60_000 }, () => {
  it("the person's hooks run around a headless session: SessionStart's context reaches the model", async () => {
    const log = path.join(project.dirs.base, 'events.log');
    const logHook = { type: 'command', command: script('log-input.sh', log) };
    write(path.join(project.dirs.home, '.toolhost', 'settings.json'), {
      hooks: {
        SessionStart: [
          {
            hooks: [
              logHook,
              { type: 'command', command: script('answer.sh', 'The build server is down today.') },
            ],
          },
        ],
        PreToolUse: [{ matcher: 'LS|list_directory', hooks: [logHook] }],
        Stop: [{ hooks: [logHook] }],
        SessionEnd: [{ hooks: [logHook] }],
      },
    });
    const result = await headless('look around');
    expect(result.code).toBe(0);
    expect(JSON.stringify(project.server!.requests[0]!.body.messages)).toContain(
      'The build server is down today.',
    );
    const events = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((event) => event.hook_event_name)).toEqual([
      'SessionStart',
      'PreToolUse',
      'Stop',
      'SessionEnd',
    ]);
    expect(events[0]).toMatchObject({ source: 'startup', cwd: project.dirs.root });
    expect(events[3]).toMatchObject({ reason: 'other' });
    // transcript_path names the session file the command wrote.
    expect(existsSync(String(events[3]!.transcript_path))).toBe(true);
  });

  it("an untrusted project's hooks never run; after toolhost trust they do", async () => {
    const canary = path.join(project.dirs.base, 'CANARY');
    const touch = [{ hooks: [{ type: 'command', command: script('touch-canary.sh', canary) }] }];
    write(path.join(project.dirs.root, '.toolhost', 'settings.json'), {
      hooks: { SessionStart: touch, UserPromptSubmit: touch, PreToolUse: touch, Stop: touch },
    });
    const untrusted = await headless('look around');
    expect(untrusted.code).toBe(0);
    expect(existsSync(canary)).toBe(false);
    expect(untrusted.stderr).toContain('hooks.PreToolUse');
    expect(untrusted.stderr).toContain('started programs');
    expect(runCli(['trust'], { cwd: project.dirs.root, home: project.dirs.home }).code).toBe(0);
    await project.server!.close();
    project.server = undefined;
    expect((await headless('look around')).code).toBe(0);
    expect(existsSync(canary)).toBe(true);
  });
});
