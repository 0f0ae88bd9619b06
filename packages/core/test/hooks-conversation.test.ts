/**
 * The hooks around the conversation (UserPromptSubmit, Stop, SubagentStop, PreCompact) and
 * hooks that fail, hang or are of another type, with real hook scripts and the real loop.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextCompressor } from '../src/agent/compression.js';
import { Config } from '../src/config/config.js';
import { HookRunner } from '../src/hooks/hook-runner.js';
import {
  closeHarness,
  current,
  LOG,
  logged,
  type Message,
  never,
  script,
  start,
  writeCall,
} from './helpers/hook-harness.js';
import { processesMatching, uniqueSleep, waitUntil } from './helpers/processes.js';

afterEach(closeHarness);

describe('UserPromptSubmit, Stop and failures', () => {
  it('exit code 2 keeps the prompt from the model; plain output is added as context', async () => {
    let { h, runner } = await start([{ text: 'never sent' }], {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: script('block.sh', 'no passwords in prompts') }] },
      ],
    });
    const blocked = await h.loop({ hooks: runner }).run('my password is hunter2', never());
    expect(blocked.status).toBe('error');
    expect(blocked.message).toContain('no passwords in prompts');
    expect(h.server.requests).toHaveLength(0);
    await h.close();

    ({ h, runner } = await start([{ text: 'ok' }], {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: script('answer.sh', 'Today is a release day.') }] },
      ],
    }));
    await h.loop({ hooks: runner }).run('what now?', never());
    const user = (h.server.requests[0]!.body.messages as Message[]).find((m) => m.role === 'user');
    expect(JSON.stringify(user?.content)).toContain('Today is a release day.');
    expect(JSON.stringify(user?.content)).toContain('what now?');
  });

  it('a Stop hook keeps the agent going with its reason, once; a subagent fires SubagentStop', async () => {
    let { h, runner } = await start([{ text: 'done' }, { text: 'tests pass, done' }], {
      Stop: [
        {
          hooks: [
            { type: 'command', command: script('keep-going-once.sh') },
            { type: 'command', command: LOG },
          ],
        },
      ],
      SubagentStop: [{ hooks: [{ type: 'command', command: LOG }] }],
    });
    const result = await h.loop({ hooks: runner }).run('finish the work', never());
    expect(result).toMatchObject({ status: 'success', text: 'tests pass, done', turns: 2 });
    const second = JSON.stringify(h.server.requests[1]!.body.messages);
    expect(second).toContain('Run the tests before you stop.');
    expect(logged(h).map((input) => [input.hook_event_name, input.stop_hook_active])).toEqual([
      ['Stop', false],
      ['Stop', true],
    ]);
    await h.close();

    ({ h, runner } = await start([{ text: 'reviewed' }], {
      Stop: [{ hooks: [{ type: 'command', command: LOG }] }],
      SubagentStop: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: LOG }] }],
    }));
    await h.loop({ hooks: runner, subagent: 'reviewer' }).run('review', never());
    expect(logged(h)).toMatchObject([
      {
        hook_event_name: 'SubagentStop',
        agent_type: 'reviewer',
        last_assistant_message: 'reviewed',
      },
    ]);
  });

  it('a failing hook is told to the person and changes nothing; a hung one is killed with its children', async () => {
    const sleep = uniqueSleep();
    const { h, runner, messages } = await start(
      (_request, index) =>
        index === 0 ? writeCall(current.harness!.ws.p('b.txt')) : { text: 'ok' },
      {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: script('fail.sh', 'missing jq') },
              { type: 'command', command: script('hang.sh', sleep), timeout: 1 },
            ],
          },
        ],
      },
      { approvalMode: 'yolo' },
    );
    const started = Date.now();
    await h.loop({ hooks: runner }).run('write it', never());
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(h.ws.p('b.txt'))).toBe(true);
    expect(messages.join('\n')).toContain('hook is broken: missing jq');
    expect(messages.join('\n')).toContain('did not finish within 1 s');
    expect(await waitUntil(() => processesMatching(`sleep ${sleep}`).length === 0)).toBe(true);
  });

  it('PreCompact runs before the history is summarised, with its trigger', async () => {
    const { h, runner } = await start(
      (request) =>
        JSON.stringify(request.body.messages).includes('The conversation so far')
          ? { text: 'a summary' }
          : { text: 'an answer' },
      {
        PreCompact: [
          {
            matcher: 'auto',
            hooks: [{ type: 'command', command: script('touch-canary.sh', '/dev/null/x') }],
          },
          { matcher: 'manual', hooks: [{ type: 'command', command: LOG }] },
        ],
      },
    );
    const compressor = new ContextCompressor(h.model, 32_000, h.loop().usage);
    const loop = h.loop({ hooks: runner, compressor });
    await loop.run('first question', never());
    await loop.run('second question', never());
    expect(logged(h)).toEqual([]);
    expect(await loop.compressNow(never())).toBe(true);
    expect(logged(h)).toMatchObject([{ hook_event_name: 'PreCompact', trigger: 'manual' }]);
  });

  it('a hook of another type is left out with a warning; the command hook beside it still runs', async () => {
    const { h } = await start([{ text: 'unused' }], {});
    const home = path.join(h.ws.base, 'person');
    mkdirSync(path.join(home, '.toolhost'), { recursive: true });
    writeFileSync(
      path.join(home, '.toolhost', 'settings.json'),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                { type: 'http', url: 'http://127.0.0.1:9/' },
                { type: 'command', command: LOG },
              ],
            },
          ],
        },
      }),
    );
    const loaded = Config.load({
      root: h.ws.root,
      homeDir: home,
      env: {},
      systemSettingsPath: path.join(home, 'none'),
    });
    expect(loaded.settings.warnings.map((warning) => warning.key)).toContain(
      'hooks.UserPromptSubmit[0].hooks[0].type',
    );
    const runner = HookRunner.fromConfig(loaded.config)!;
    expect(runner.list()).toHaveLength(1);
    await runner.run('UserPromptSubmit', { prompt: 'hello' }, undefined);
    expect(logged(h)).toMatchObject([{ hook_event_name: 'UserPromptSubmit', prompt: 'hello' }]);
  });
});
