/** `--thinking <level>`: the request asks the model to think; an unknown level is a usage error. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ProviderServer,
  startProviderServer,
} from '../../core/test/helpers/provider-servers.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCliAsync } from './run-cli.js';

let server: ProviderServer | undefined;
let dirs: TempDirs | undefined;
afterEach(async () => {
  await server?.close();
  dirs?.cleanup();
  server = undefined;
  dirs = undefined;
});

async function ask(level: string) {
  server = await startProviderServer('gemini', [
    { thinking: 'Considering it.', text: 'Thought about it.' },
  ]);
  dirs = makeTempDirs();
  return runCliAsync(['-p', 'Think', '--thinking', level], {
    cwd: dirs.root,
    home: dirs.home,
    env: {
      GOOGLE_GEMINI_BASE_URL: server.baseUrl,
      GEMINI_MODEL: 'gemini-scripted',
      GEMINI_API_KEY: 'key',
    },
  });
}

describe('--thinking', { timeout: 120_000 }, () => {
  it('asks Gemini for thoughts with the level’s budget', async () => {
    const result = await ask('high');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Thought about it.\n');
    expect(server!.requests[0]!.body.generationConfig).toMatchObject({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 },
    });
  });

  it('refuses a level it does not know, before any request', async () => {
    const result = await ask('extreme');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--thinking takes off, low, medium, high; "extreme" is none/);
    expect(server!.requests).toHaveLength(0);
  });
});
