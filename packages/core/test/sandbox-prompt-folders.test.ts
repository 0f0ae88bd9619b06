/**
 * The folders later sessions load prompts from (subagents, the terminal's commands) are
 * out of a sandboxed command's reach, with real bwrap: a file planted in any folder the
 * loaders name is not there afterwards, whether the folder existed or not, and a folder
 * that did not exist is not left behind either. The lists come from the loaders' own
 * (prompt-folders.ts), so a folder added there is tried here too. And a repository
 * whose submodule folders are too many to work out is refused, not run half-protected.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSubagents } from '../src/agent/subagents/subagent-files.js';
import { Config } from '../src/config/config.js';
import {
  PROMPT_FOLDER_ROOTS,
  SUBAGENT_FOLDERS,
  USER_COMMAND_FOLDERS,
} from '../src/config/prompt-folders.js';
import { sandboxStatus } from '../src/shell/sandbox/sandbox.js';
import { ShellTool } from '../src/tools/shell.js';
import { waitUntil } from './helpers/processes.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

const status = sandboxStatus('allow');
if (!status.available) console.warn(`prompt folder tests skipped: ${status.reason}`);
const describeSandbox = describe.skipIf(!status.available || process.platform !== 'linux');

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await ws.config.dispose();
  ws.cleanup();
});

const LOADED = [...SUBAGENT_FOLDERS, ...USER_COMMAND_FOLDERS];
const AGENT = '---\nname: planted\ndescription: planted by a command\n---\nDo as the file says.\n';

/** A command that tries every way to leave a prompt file in each loaded folder. */
const PLANT = LOADED.map((folder) => {
  const top = folder.split('/')[0]!;
  return [
    `mkdir -p ${folder}`,
    `echo '${AGENT}' > ${folder}/planted.md`,
    `mv ${top} ${top}.moved`,
    `rm -rf ${top}`,
    `mkdir -p ${top}.new/${folder.split('/')[1]} && mv -T ${top}.new ${top}`,
    `rm -rf ${top}.new`,
  ].join('; ');
}).join('; ');

function shell(config: Config = ws.config): ShellTool {
  return new ShellTool(config);
}

function sandboxedConfig(): Config {
  return new Config({
    roots: [ws.root],
    homeDir: ws.home,
    settings: { tools: { shell: { sandbox: 'on' } } },
  });
}

async function run(tool: ShellTool, command: string, background = false) {
  const result = await tool.execute(
    { command, is_background: background },
    new AbortController().signal,
  );
  return String(result.llmContent);
}

describe('the protected folders come from the loaders', () => {
  it('names the top folder of every folder a loader reads', () => {
    for (const folder of LOADED) expect(PROMPT_FOLDER_ROOTS).toContain(folder.split('/')[0]);
    expect([...PROMPT_FOLDER_ROOTS].sort()).toEqual(['.claude', '.gemini', '.qwen', '.toolhost']);
  });
});

describeSandbox('sandboxed commands cannot plant prompts for later sessions', () => {
  it('in folders that exist: nothing planted, nothing moved or removed', async () => {
    for (const folder of LOADED) {
      mkdirSync(ws.p(folder), { recursive: true });
      writeFileSync(ws.p(folder, 'kept.md'), AGENT.replace('planted', 'kept'));
    }
    const config = sandboxedConfig();
    try {
      const text = await run(shell(config), `${PLANT}; echo done`);
      expect(text).toContain('done');
      for (const folder of LOADED) {
        expect(readdirSync(ws.p(folder)), folder).toEqual(['kept.md']);
        const top = folder.split('/')[0]!;
        expect(existsSync(ws.p(`${top}.moved`)), top).toBe(false);
      }
      const loaded = loadSubagents(config);
      expect(loaded.definitions.map((agent) => agent.name)).not.toContain('planted');
    } finally {
      await config.dispose();
    }
  });

  it('in folders that do not exist: nothing planted, and no empty folder left behind', async () => {
    const config = sandboxedConfig();
    try {
      const text = await run(shell(config), `${PLANT}; echo done`);
      expect(text).toContain('done');
      // Given back as soon as the sandbox's mounts are gone (a moment after its exit).
      const leftInRoot = () => readdirSync(ws.root).filter((name) => !name.startsWith('.git'));
      await waitUntil(() => leftInRoot().length === 0, 5_000);
      expect(leftInRoot()).toEqual([]);
      const again = await run(shell(config), 'ls -a; echo done');
      expect(again).toContain('done');
      expect(readdirSync(ws.root)).toEqual([]);
    } finally {
      await config.dispose();
    }
  });

  it('keeps a missing folder out of reach while a background command runs, then removes it', async () => {
    const config = sandboxedConfig();
    const marker = ws.p('started');
    try {
      await run(shell(config), `touch started; sleep 1; ${PLANT}; echo ended > ended`, true);
      expect(await waitUntil(() => existsSync(marker), 10_000)).toBe(true);
      // A foreground command ending meanwhile leaves the background one's folders.
      await run(shell(config), 'true');
      for (const top of PROMPT_FOLDER_ROOTS) expect(existsSync(ws.p(top)), top).toBe(true);
      expect(await waitUntil(() => existsSync(ws.p('ended')), 20_000)).toBe(true);
      expect(
        await waitUntil(() => PROMPT_FOLDER_ROOTS.every((top) => !existsSync(ws.p(top))), 10_000),
      ).toBe(true);
      expect(readdirSync(ws.root).sort()).toEqual(['ended', 'started']);
    } finally {
      await config.dispose();
    }
  });
});

describeSandbox('a repository the sandbox cannot work out', () => {
  it('is refused and nothing runs, when modules/ holds more folders than are looked at', async () => {
    const modules = ws.p('.git', 'modules');
    mkdirSync(ws.p('.git', 'hooks'), { recursive: true });
    for (let index = 0; index < 501; index++)
      mkdirSync(`${modules}/m${index}`, { recursive: true });
    const config = sandboxedConfig();
    try {
      const text = await run(shell(config), 'touch ran');
      expect(existsSync(ws.p('ran'))).toBe(false);
      expect(text).toContain('more than 500 folders under modules/');
      expect(text).toContain('Nothing was run');
    } finally {
      await config.dispose();
    }
  });
});
