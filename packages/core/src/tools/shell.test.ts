import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  killMatching,
  processesMatching,
  uniqueSleep,
  waitUntil,
} from '../../test/helpers/processes.js';
import { scriptedScheduler } from '../../test/helpers/scheduler.js';
import { makeWorkspace, type TempWorkspace } from '../../test/helpers/temp-workspace.js';
import { Config } from '../config/config.js';
import type { Settings } from '../config/settings.js';
import { ShellTool, type ShellToolParams } from './shell.js';
import { isForcedQuestion, ToolConfirmationOutcome, ToolErrorType } from './tools.js';

let ws: TempWorkspace;
let tool: ShellTool;
const run = (
  params: Partial<ShellToolParams> & { command: string },
  signal = new AbortController().signal,
) => tool.execute({ is_background: false, ...params }, signal);
const text = (result: { llmContent: unknown }) => String(result.llmContent);

beforeEach(() => {
  ws = makeWorkspace();
  tool = new ShellTool(ws.config);
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

function withSettings(settings: Settings) {
  const config = new Config({ roots: [ws.root], homeDir: ws.home, settings });
  tool = new ShellTool(config);
  return config;
}

describe('run_shell_command: running', () => {
  it('returns the command, folder, output and exit code', async () => {
    const result = await run({ command: 'echo hello' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toBe(
      `Command: echo hello\nDirectory: ${ws.root}\nOutput:\nhello\nExit code: 0`,
    );
  });

  it('reports a non-zero exit without treating it as a tool failure', async () => {
    const result = await run({ command: 'echo oops >&2; exit 3' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toContain('oops');
    expect(text(result)).toContain('Exit code: 3');
  });

  it('keeps stdout and stderr in the order they came', async () => {
    const result = await run({
      command: 'echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three',
    });
    expect(text(result)).toContain('Output:\none\ntwo\nthree\n');
  });

  it('runs in the given folder', async () => {
    const dir = ws.mkdir('sub/dir');
    expect(text(await run({ command: 'pwd', directory: dir }))).toContain(`Output:\n${dir}\n`);
  });

  it('refuses a folder outside the workspace or missing', async () => {
    expect(
      tool.validateToolParams({ command: 'ls', is_background: false, directory: ws.base }),
    ).toMatch(/^directory: .* is outside the workspace/);
    expect(
      tool.validateToolParams({ command: 'ls', is_background: false, directory: 'rel' }),
    ).toMatch(/not an absolute path/);
    const missing = await run({ command: 'ls', directory: ws.p('nope') });
    expect(missing.error?.type).toBe(ToolErrorType.PATH_IS_NOT_A_DIRECTORY);
  });

  it('accepts a call without is_background (Qwen Code 0.24 models leave it out) as false', async () => {
    expect(tool.schema.parametersJsonSchema).toMatchObject({ required: ['command'] });
    expect(tool.validateToolParams({ command: 'echo hi' })).toBeNull();
    const result = await tool.execute({ command: 'echo hi' }, new AbortController().signal);
    expect(text(result)).toContain('Output:\nhi\nExit code: 0');
  });

  it('runs a call whose values came in the wrong JSON type ("false", "5000"), as Qwen Code does', async () => {
    const params = { command: 'echo typed', is_background: 'false', timeout: '5000' };
    expect(tool.validateToolParams(params)).toBeNull();
    expect(params).toEqual({ command: 'echo typed', is_background: false, timeout: 5000 });
    const result = await tool.execute(
      params as unknown as ShellToolParams,
      new AbortController().signal,
    );
    expect(text(result)).toContain('Output:\ntyped\nExit code: 0');
    expect(tool.validateToolParams({ command: 'ls', is_background: 'maybe' })).toMatch(
      /is_background must be boolean/,
    );
  });

  it('closes standard input, so a command waiting for input ends', async () => {
    // With stdin open, `read` and `cat` would wait until the timeout ended them.
    const result = await run({
      command: 'read line; echo "got:[$line]"; cat; echo done',
      timeout: 20_000,
    });
    expect(text(result)).toContain('got:[]');
    expect(text(result)).toContain('done');
    expect(text(result)).not.toContain('timed out');
    expect(text(result)).toMatch(/Exit code: 0$/);
  });

  it('removes ANSI colour codes', async () => {
    const result = await run({
      command: "printf '\\033[31mred\\033[0m and \\033[1;32mgreen\\033[0m\\n'",
    });
    expect(text(result)).toContain('Output:\nred and green\n');
  });

  it('detects binary output and reports its size instead', async () => {
    const result = await run({ command: "printf 'start\\n'; sleep 0.1; head -c 5000 /dev/zero" });
    expect(text(result)).toMatch(/\[binary output: [\d.]+ (KB|B) not shown\]/);
    expect(text(result)).not.toContain('\u0000');
  });

  it('drops secrets from the environment and marks it as toolhost', async () => {
    process.env.TOOLHOST_TEST_API_KEY = 'very-secret';
    process.env.TOOLHOST_TEST_PLAIN = 'visible';
    try {
      const result = await run({
        command:
          'echo "[$TOOLHOST_TEST_API_KEY][$TOOLHOST_TEST_PLAIN][$TOOLHOST][$PAGER][$GIT_PAGER]"',
      });
      expect(text(result)).toContain('[][visible][1][cat][cat]');
      withSettings({ tools: { shell: { allowEnv: ['TOOLHOST_TEST_API_KEY'] } } });
      expect(text(await run({ command: 'echo "[$TOOLHOST_TEST_API_KEY]"' }))).toContain(
        '[very-secret]',
      );
    } finally {
      delete process.env.TOOLHOST_TEST_API_KEY;
      delete process.env.TOOLHOST_TEST_PLAIN;
    }
  });

  it('streams live output, at most once a second', async () => {
    const updates: string[] = [];
    const started = performance.now();
    await tool.execute(
      {
        command: 'for i in $(seq 1 40); do echo line$i; sleep 0.05; done',
        is_background: false,
      },
      new AbortController().signal,
      (output) => updates.push(output),
    );
    // Forty separate writes; the bound follows the time the command really took.
    const seconds = (performance.now() - started) / 1000;
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(updates.length).toBeLessThan(40);
    expect(updates[0]).toContain('line1');
  });
});

describe('run_shell_command: ending process trees', () => {
  // toolhost's own process-group handling, which ends commands where no sandbox runs; inside
  // the sandbox its PID namespace also ends leftovers (test/sandbox.test.ts).
  beforeEach(() => {
    Object.assign(ws.config.settings, { tools: { shell: { sandbox: 'off' } } });
  });
  const tree = (marker: string) =>
    `(sleep ${marker} &) ; bash -c 'sleep ${marker} & sleep ${marker}' & nohup sleep ${marker} >/dev/null 2>&1 & echo started; sleep ${marker}`;

  it('ends the whole tree at the timeout, with the output so far', async () => {
    const marker = uniqueSleep();
    const result = await run({ command: tree(marker), timeout: 1500 });
    expect(text(result)).toContain('started');
    expect(text(result)).toContain('timed out after 1.5 s');
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it('ends the whole tree when the signal aborts', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const pending = run({ command: tree(marker) }, controller.signal);
    try {
      expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length >= 5)).toBe(true);
    } finally {
      controller.abort();
    }
    const result = await pending;
    expect(text(result)).toContain('cancelled');
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it('reports processes a command left running and ends them with the session', async () => {
    const marker = uniqueSleep();
    const result = await run({ command: `sleep ${marker} & echo left` });
    expect(text(result)).toMatch(/Background PIDs still running: \d+/);
    expect(processesMatching(`sleep ${marker}`)).toHaveLength(1);
    await ws.config.dispose();
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it('does not hang when a process that left the group keeps the output pipe open', async () => {
    // If it hung, the call would wait for the escaped `sleep` (minutes) and time out the test.
    const marker = uniqueSleep();
    try {
      const result = await run({ command: `setsid sleep ${marker} & echo done` });
      expect(text(result)).toContain('done');
      expect(processesMatching(`sleep ${marker}`)).toHaveLength(1);
    } finally {
      // It escaped the process group, so end it here by its id.
      killMatching(`sleep ${marker}`);
    }
  });

  it('starts a background command, lists it, and ends it with the session', async () => {
    // The call returns while the command runs (waiting for it would time out the test).
    const marker = uniqueSleep();
    const result = await run({ command: `echo serving; sleep ${marker}`, is_background: true });
    expect(processesMatching(`sleep ${marker}`)).toHaveLength(1);
    const pid = Number(/PID: (\d+)/.exec(text(result))?.[1]);
    const log = /written to (\S+);/.exec(text(result))?.[1];
    expect(pid).toBeGreaterThan(0);
    expect(ws.config.backgroundProcesses.list().map((p) => p.pid)).toEqual([pid]);
    expect(
      await waitUntil(() => existsSync(log!) && readFileSync(log!, 'utf8').includes('serving')),
    ).toBe(true);
    expect(ws.config.workspace.check(log!, 'read').ok).toBe(true);
    await ws.config.dispose();
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it('keeps background commands after the session when settings say so', async () => {
    const marker = uniqueSleep();
    const config = withSettings({
      tools: { shell: { keepBackgroundProcesses: true, sandbox: 'off' } },
    });
    await run({ command: `sleep ${marker}`, is_background: true });
    await config.dispose();
    expect(processesMatching(`sleep ${marker}`)).toHaveLength(1);
    await config.backgroundProcesses.endAll();
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });
});

describe('run_shell_command: through the scheduler', () => {
  function scheduler(settings: Settings, mode: 'default' | 'yolo' = 'default') {
    const config = new Config({ roots: [ws.root], homeDir: ws.home, settings, approvalMode: mode });
    const asked: { command: string; roots: string[] }[] = [];
    let answer = ToolConfirmationOutcome.ProceedOnce;
    const scheduled = scriptedScheduler(config, {
      answer: (details) => {
        if (details.type === 'exec')
          asked.push({ command: details.command, roots: details.rootCommands });
        return answer;
      },
    });
    const call = (command: string) =>
      scheduled.call('run_shell_command', { command, is_background: false }, { callId: command });
    return { call, asked, config, answerWith: (o: ToolConfirmationOutcome) => (answer = o) };
  }

  it('refuses a denied command even in yolo mode, naming the rule', async () => {
    const victim = ws.write('victim.txt', 'keep me');
    const { call } = scheduler({ tools: { exclude: ['run_shell_command(rm)'] } }, 'yolo');
    const done = await call(`echo ok && /bin/rm ${victim}`);
    expect(done.response.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
    expect(done.response.error?.message).toContain('run_shell_command(rm)');
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
  });

  it('is removed entirely by a bare run_shell_command in tools.exclude', async () => {
    const { call } = scheduler({ tools: { exclude: ['run_shell_command'] } });
    expect((await call('ls')).response.error?.type).toBe(ToolErrorType.TOOL_NOT_REGISTERED);
  });

  it('runs read-only and allowed commands without asking, asks for the rest', async () => {
    const { call, asked } = scheduler({ tools: { allowed: ['run_shell_command(touch)'] } });
    expect((await call('ls -la | wc -l')).status).toBe('success');
    expect((await call('touch made.txt')).status).toBe('success');
    expect(asked).toEqual([]);
    await call('mkdir newdir && touch newdir/x');
    expect(asked).toEqual([{ command: 'mkdir newdir && touch newdir/x', roots: ['mkdir'] }]);
  });

  it('"always" allows those command names for the session, not the whole tool', async () => {
    const { call, asked, answerWith, config } = scheduler({});
    answerWith(ToolConfirmationOutcome.ProceedAlways);
    await call('mkdir a1');
    await call('mkdir a2');
    await call('touch a1/x');
    expect(asked.map((a) => a.command)).toEqual(['mkdir a1', 'touch a1/x']);
    expect(config.sessionAllowedShellCommands.has('mkdir')).toBe(true);
    expect(config.sessionAllowedTools.has('run_shell_command')).toBe(false);
  });

  it('always asks for command substitution, showing what runs inside', async () => {
    const { call, asked } = scheduler({
      tools: { allowed: ['run_shell_command(echo)', 'run_shell_command(date)'] },
    });
    await call('echo $(date)');
    expect(asked).toEqual([{ command: 'echo $(date)', roots: [] }]);
  });

  it('sends huge output through the scheduler head and tail, with the full log saved', async () => {
    const { call } = scheduler({ tools: { truncateOutputThreshold: 5_000 } });
    const done = await call('seq 1 100000');
    const output = String(done.response.responseParts[0]?.functionResponse?.response?.output);
    expect(output.length).toBeLessThan(6_000);
    expect(output).toContain('\n1\n2\n3\n');
    expect(output).toContain('100000');
    expect(readFileSync(done.response.outputFile!, 'utf8')).toContain('\n54321\n');
  });
});

describe('run_shell_command: deny rules no sandbox can hold', () => {
  const settings: Settings = {
    tools: { shell: { sandbox: 'off' } },
    permissions: { deny: ['Read(./secrets/**)'] },
  };

  it('asks in every mode, and runs only once the person said yes', async () => {
    ws.write('secrets/x.txt', 'SHELL-SECRET');
    // A script the command analysis cannot see into.
    ws.write('peek.sh', 'cat secrets/x.txt; touch canary\n');
    const config = withSettings(settings);
    config.setApprovalMode('yolo');
    const command = 'sh peek.sh';
    // Run without the question: refused, nothing done.
    const unasked = await run({ command });
    expect(unasked.error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
    expect(text(unasked)).toContain('no sandbox hides or protects what your deny rules');
    expect(existsSync(`${ws.root}/canary`)).toBe(false);
    const details = await tool.shouldConfirmExecute({ command, is_background: false });
    if (details === false || details.type !== 'exec') throw new Error('expected a question');
    // Forced by the deny rule (not an ask rule), and named as such.
    expect(details.askedByRules).toBeUndefined();
    expect(details.unheldDenyRules?.rules).toEqual(['Read(./secrets/**)']);
    expect(isForcedQuestion(details)).toBe(true);
    await details.onConfirm(ToolConfirmationOutcome.ProceedOnce);
    const ran = await run({ command });
    expect(text(ran)).toContain('SHELL-SECRET');
    // The yes was for that one run.
    expect((await run({ command })).error?.type).toBe(ToolErrorType.EXECUTION_DENIED);
  });

  it('leaves commands alone while the rules cover nothing that exists', async () => {
    withSettings(settings).setApprovalMode('yolo');
    // A question yolo answers by itself, not one an ask rule forces.
    const details = await tool.shouldConfirmExecute({
      command: 'touch made',
      is_background: false,
    });
    expect(details && isForcedQuestion(details)).toBeFalsy();
    expect((await run({ command: 'touch made' })).error).toBeUndefined();
    expect(existsSync(`${ws.root}/made`)).toBe(true);
  });
});
