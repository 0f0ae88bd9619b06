/**
 * `toolhost -p` against each model family from the environment alone, as a person sets it
 * up: ANTHROPIC_* talk Anthropic Messages, GEMINI_* Gemini, and an OpenAI key set beside
 * them never leaves with a request to another family.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ApiFamily,
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

async function ask(
  family: ApiFamily,
  env: (baseUrl: string) => NodeJS.ProcessEnv,
  args: string[] = [],
) {
  server = await startProviderServer(family, [
    {
      text: `Answered by ${family}.`,
      usage: { input: 10, output: 3, cacheRead: 5, cacheWrite: 40 },
    },
  ]);
  dirs = makeTempDirs();
  const result = await runCliAsync(['-p', 'hello there', ...args], {
    cwd: dirs.root,
    home: dirs.home,
    env: { OPENAI_API_KEY: 'OPENAI-SECRET-KEY', ...env(server.baseUrl) },
  });
  const headers = JSON.stringify(server.requests.map((request) => request.headers));
  return { result, headers, request: server.requests[0] };
}

describe('headless runs against every model family', { timeout: 120_000 }, () => {
  it('Anthropic from ANTHROPIC_BASE_URL, ANTHROPIC_MODEL and ANTHROPIC_API_KEY, cache use in the usage', async () => {
    const { result, headers, request } = await ask(
      'anthropic',
      (baseUrl) => ({
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_MODEL: 'claude-scripted',
        ANTHROPIC_API_KEY: 'ANTHROPIC-KEY',
      }),
      ['-o', 'json'],
    );
    expect(result.code).toBe(0);
    const last = (JSON.parse(result.stdout) as Array<Record<string, unknown>>).at(-1)!;
    expect(last.result).toBe('Answered by anthropic.');
    expect(last.usage).toMatchObject({
      input_tokens: 55,
      output_tokens: 3,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 40,
    });
    expect(request?.url).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe('ANTHROPIC-KEY');
    expect(headers).not.toContain('OPENAI-SECRET-KEY');
  });

  it('Gemini from GOOGLE_GEMINI_BASE_URL, GEMINI_MODEL and GEMINI_API_KEY', async () => {
    const { result, headers, request } = await ask('gemini', (baseUrl) => ({
      GOOGLE_GEMINI_BASE_URL: baseUrl,
      GEMINI_MODEL: 'gemini-scripted',
      GEMINI_API_KEY: 'GEMINI-KEY',
    }));
    expect(result.stdout).toContain('Answered by gemini.');
    expect(request?.url).toBe('/v1beta/models/gemini-scripted:streamGenerateContent?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe('GEMINI-KEY');
    expect(headers).not.toContain('OPENAI-SECRET-KEY');
  });
});
