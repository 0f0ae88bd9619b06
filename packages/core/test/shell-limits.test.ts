/**
 * The shell's promises about time and environment, checked by their effect: the timeout
 * (default, settings, the 600 s cap, on a fake clock so nothing waits minutes), TERM then
 * KILL for a command that ignores TERM, and every secret-looking variable left out.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Config } from '../src/config/config.js';
import type { Settings } from '../src/config/settings.js';
import { ShellTool } from '../src/tools/shell.js';
import { killMatching, processesMatching, uniqueSleep, waitUntil } from './helpers/processes.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const realSetTimeout = globalThis.setTimeout;
const realPause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

let ws: TempWorkspace;
const configs: Config[] = [];
/** Markers of the `sleep`s a test started; any still running after it are ended. */
const markers: string[] = [];
const newMarker = () => {
  const marker = uniqueSleep();
  markers.push(marker);
  return marker;
};
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  vi.useRealTimers();
  for (const marker of markers.splice(0)) killMatching(marker);
  for (const config of configs.splice(0)) await config.dispose();
  await ws.config.dispose();
  ws.cleanup();
});

function shell(settings: Settings = {}) {
  // The timeout's own handling, seen from outside: without the sandbox, whose process
  // (bwrap) would also match the marker.
  const plain: Settings = {
    ...settings,
    tools: { ...settings.tools, shell: { sandbox: 'off', ...settings.tools?.shell } },
  };
  const config = new Config({ roots: [ws.root], homeDir: ws.home, settings: plain });
  configs.push(config);
  return new ShellTool(config);
}
const text = (result: { llmContent: unknown }) => String(result.llmContent);
const signal = new AbortController().signal;

describe('run_shell_command: the timeout', () => {
  /** Runs `sleep` on a fake clock; returns when the call ended and the clock time it took. */
  async function timeOnFakeClock(settings: Settings, timeout?: number) {
    const marker = newMarker();
    const tool = shell(settings);
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const start = Date.now();
    let settled = false;
    const pending = tool
      .execute({ command: `sleep ${marker}`, is_background: false, timeout }, signal)
      .finally(() => {
        settled = true;
      });
    try {
      // Wait (on the real clock) for the command to run before moving the fake one.
      for (let i = 0; i < 200 && processesMatching(`sleep ${marker}`).length === 0; i++)
        await realPause(25);
      expect(processesMatching(`sleep ${marker}`)).toHaveLength(1);
      return { marker, start, pending, isSettled: () => settled };
    } catch (error) {
      vi.useRealTimers();
      throw error;
    }
  }

  async function advanceUntilSettled(isSettled: () => boolean) {
    for (let i = 0; i < 2000 && !isSettled(); i++) {
      await vi.advanceTimersByTimeAsync(100);
      await realPause(2);
    }
  }

  const cases: [string, Settings, number | undefined, number][] = [
    ['defaults to 120 s', {}, undefined, 120_000],
    [
      'takes tools.shell.defaultTimeout from settings',
      { tools: { shell: { defaultTimeout: 45_000 } } },
      undefined,
      45_000,
    ],
    [
      'caps a longer default at 600 s',
      { tools: { shell: { defaultTimeout: 3_600_000 } } },
      undefined,
      600_000,
    ],
    [
      "lets the call's own timeout win over the setting",
      { tools: { shell: { defaultTimeout: 45_000 } } },
      7_000,
      7_000,
    ],
  ];
  for (const [what, settings, timeout, expectedMs] of cases) {
    it(what, async () => {
      const run = await timeOnFakeClock(settings, timeout);
      await vi.advanceTimersByTimeAsync(expectedMs - 1_000);
      await realPause(50);
      expect(run.isSettled()).toBe(false);
      expect(processesMatching(`sleep ${run.marker}`)).toHaveLength(1);
      await advanceUntilSettled(run.isSettled);
      const result = await run.pending;
      vi.useRealTimers();
      expect(text(result)).toContain(`timed out after ${expectedMs / 1000} s`);
      expect(await waitUntil(() => processesMatching(`sleep ${run.marker}`).length === 0)).toBe(
        true,
      );
    });
  }

  it('refuses a timeout over 600 s from the model, saying the limit', () => {
    expect(
      shell().validateToolParams({ command: 'ls', is_background: false, timeout: 600_001 }),
    ).toMatch(/timeout must be <= 600000/);
  });
});

describe('run_shell_command: ending a command that ignores TERM', () => {
  it('sends TERM first, then KILL to what is still running', async () => {
    const marker = newMarker();
    const log = ws.p('signals.log');
    // The loop records each TERM it receives and carries on; only KILL can end it.
    const command = `trap 'echo TERM >> ${log}' TERM; echo up; while :; do sleep ${marker} & wait; done`;
    const result = await shell().execute({ command, is_background: false, timeout: 1_000 }, signal);
    expect(text(result)).toContain('up');
    expect(text(result)).toContain('timed out after 1 s');
    expect(readFileSync(log, 'utf8')).toContain('TERM');
    expect(await waitUntil(() => processesMatching(`sleep ${marker}`).length === 0)).toBe(true);
  });
});

describe('run_shell_command: secrets in the environment', () => {
  const secrets = {
    TOOLHOST_T_API_KEY: 'k1',
    TOOLHOST_T_KEYRING: 'k2',
    TOOLHOST_T_CLIENT_SECRET: 's1',
    TOOLHOST_T_GH_TOKEN: 't1',
    TOOLHOST_T_DB_PASSWORD: 'p1',
    TOOLHOST_T_PASSWD: 'p2',
    TOOLHOST_T_CREDENTIALS: 'c1',
    toolhost_t_lower_token: 't2',
  };
  const plain = { TOOLHOST_T_PLAIN: 'visible' };

  beforeEach(() => Object.assign(process.env, secrets, plain));
  afterEach(() => {
    for (const name of [...Object.keys(secrets), ...Object.keys(plain)]) delete process.env[name];
  });

  it('leaves out every variable whose name has KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL', async () => {
    const result = await shell().execute(
      { command: 'env | grep -i "^toolhost_t_" | sort', is_background: false },
      signal,
    );
    const output = text(result);
    for (const [name, value] of Object.entries(secrets)) {
      expect(output).not.toContain(name);
      expect(output).not.toContain(`=${value}`);
    }
    expect(output).toContain('TOOLHOST_T_PLAIN=visible');
  });

  it('passes on the ones tools.shell.allowEnv names, and only those', async () => {
    const result = await shell({
      tools: { shell: { allowEnv: ['TOOLHOST_T_GH_TOKEN', 'TOOLHOST_T_CREDENTIALS'] } },
    }).execute({ command: 'env | grep -i "^toolhost_t_" | sort', is_background: false }, signal);
    const output = text(result);
    expect(output).toContain('TOOLHOST_T_GH_TOKEN=t1');
    expect(output).toContain('TOOLHOST_T_CREDENTIALS=c1');
    expect(output).not.toContain('TOOLHOST_T_API_KEY');
    expect(output).not.toContain('TOOLHOST_T_DB_PASSWORD');
  });
});
