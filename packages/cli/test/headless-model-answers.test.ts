/**
 * `toolhost -p` and what a provider's answer may hold beyond text. When the provider stops
 * the answer, a refusal or a safety stop is a result of its own (subtype `error_refusal` /
 * `error_safety` with the provider's reason, exit code 4), the text that came before it is
 * printed with a notice saying it is partial. `--thinking <level>` asks for thoughts.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { FinishReason, type GenerateContentResponse } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../core/test/helpers/model-server.js';
import { anthropicEvents } from '../../core/test/helpers/provider-events-anthropic.js';
import {
  type ApiFamily,
  type ProviderServer,
  type ProviderStep,
  startProviderServer,
} from '../../core/test/helpers/provider-servers.js';
import { makeTempDirs, type TempDirs } from '../../core/test/helpers/temp-workspace.js';
import { runCliAsync } from './run-cli.js';

let server: ProviderServer | undefined;
let chatServer: ModelServer | undefined;
let dirs: TempDirs | undefined;
afterEach(async () => {
  await server?.close();
  await chatServer?.close();
  dirs?.cleanup();
  server = undefined;
  chatServer = undefined;
  dirs = undefined;
});

const ENV: Record<'anthropic' | 'gemini', (baseUrl: string) => NodeJS.ProcessEnv> = {
  anthropic: (baseUrl) => ({
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_MODEL: 'claude-scripted',
    ANTHROPIC_API_KEY: 'key',
  }),
  gemini: (baseUrl) => ({
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_MODEL: 'gemini-scripted',
    GEMINI_API_KEY: 'key',
  }),
};

async function ask(family: ApiFamily & keyof typeof ENV, step: ProviderStep, args: string[]) {
  server = await startProviderServer(family, [step]);
  dirs = makeTempDirs();
  return runCliAsync(['-p', 'Tell me everything', ...args], {
    cwd: dirs.root,
    home: dirs.home,
    env: ENV[family](server.baseUrl),
  });
}

const safetyStop: ProviderStep = {
  events: (
    [
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'The first half' }] }, index: 0 }],
      },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: '' }] },
            finishReason: FinishReason.SAFETY,
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
      },
    ] as GenerateContentResponse[]
  ).map((data) => ({ data })),
};

describe('headless runs that the provider stops', { timeout: 120_000 }, () => {
  it('a safety stop: partial text on stdout, the notice on stderr, exit code 4', async () => {
    const result = await ask('gemini', safetyStop, []);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('The first half\n');
    expect(result.stderr).toMatch(
      /safety system stopped the answer \(SAFETY\)\. The answer above is partial/,
    );
  });

  it('a refusal: its own subtype and reason in the JSON result', async () => {
    const refusal: ProviderStep = {
      events: anthropicEvents({ text: 'I would rather not' }).map((sse) => {
        const event = sse.data as RawMessageStreamEvent;
        return event.type === 'message_delta'
          ? {
              event: event.type,
              data: { ...event, delta: { ...event.delta, stop_reason: 'refusal' } },
            }
          : sse;
      }),
    };
    const result = await ask('anthropic', refusal, ['-o', 'json']);
    expect(result.code).toBe(4);
    const last = (JSON.parse(result.stdout) as Array<Record<string, unknown>>).at(-1)!;
    expect(last).toMatchObject({
      type: 'result',
      subtype: 'error_refusal',
      is_error: true,
      result: 'I would rather not',
      stop_reason: 'refusal',
    });
    expect(String(last.error)).toMatch(/refused to answer/);
  });
});

describe('--thinking', { timeout: 120_000 }, () => {
  const thoughtful: ProviderStep = { thinking: 'Considering it.', text: 'Thought about it.' };

  it('asks Gemini for thoughts with the level’s budget', async () => {
    const result = await ask('gemini', thoughtful, ['--thinking', 'high']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Thought about it.\n');
    expect(server!.requests[0]!.body.generationConfig).toMatchObject({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 },
    });
  });

  it('refuses a level it does not know, before any request', async () => {
    const result = await ask('gemini', thoughtful, ['--thinking', 'extreme']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--thinking takes off, low, medium, high; "extreme" is none/);
    expect(server!.requests).toHaveLength(0);
  });
});

describe('an answer that breaks off', { timeout: 120_000 }, () => {
  it('llama-server cannot parse the output: the partial text printed, the cause named, exit 1', async () => {
    chatServer = await startModelServer([
      {
        textBefore: 'Let me look at',
        sseError: {
          code: 500,
          message: "The model's output does not match the expected Qwen3-Coder format",
          type: 'server_error',
        },
      },
    ]);
    dirs = makeTempDirs();
    const result = await runCliAsync(['-p', 'Look around'], {
      cwd: dirs.root,
      home: dirs.home,
      env: {
        OPENAI_BASE_URL: chatServer.baseUrl,
        OPENAI_MODEL: 'qwen3-coder',
        OPENAI_API_KEY: 'k',
      },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('Let me look at\n');
    expect(result.stderr).toMatch(/could not parse what the model wrote/);
    expect(result.stderr).toMatch(/The answer above broke off there\./);
    expect(result.stderr).not.toMatch(/overloaded|Trying again/);
    expect(chatServer.requests).toHaveLength(1);
  });
});
