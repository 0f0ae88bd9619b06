import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/settings.js';
import { inferProvider } from '../models/provider.js';
import { resolveEndpoint } from './endpoints.js';
import { configuredModels, findModel } from './model-catalog.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Settings as toolhost loads them: a user file, a project file and the environment. */
function load(user: object, env: NodeJS.ProcessEnv, project?: object, trusted = true) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'catalog-'));
  dirs.push(home);
  mkdirSync(path.join(home, '.toolhost'));
  writeFileSync(path.join(home, '.toolhost', 'settings.json'), JSON.stringify(user));
  const root = path.join(home, 'project');
  mkdirSync(path.join(root, '.toolhost'), { recursive: true });
  if (project)
    writeFileSync(path.join(root, '.toolhost', 'settings.json'), JSON.stringify(project));
  const loaded = loadSettings({ workspaceRoot: root, homeDir: home, env, projectTrusted: trusted });
  return { settings: loaded.merged, untrusted: loaded.untrustedEndpoints };
}

describe('which model and which API', () => {
  it('infers the family from the address, else from the name when no address is set', () => {
    expect(inferProvider('https://api.anthropic.com', 'x')).toBe('anthropic');
    expect(inferProvider('https://api.deepseek.com/anthropic', 'deepseek-chat')).toBe('anthropic');
    expect(inferProvider('https://generativelanguage.googleapis.com/v1beta', 'x')).toBe('gemini');
    expect(inferProvider('http://127.0.0.1:8000/v1', 'claude-sonnet-4')).toBeUndefined();
    expect(inferProvider(undefined, 'claude-sonnet-4')).toBe('anthropic');
    expect(inferProvider(undefined, 'gemini-2.5-pro')).toBe('gemini');
  });

  it('sends an Anthropic model the Anthropic key, never the OpenAI one in the environment', () => {
    const env = { OPENAI_API_KEY: 'OPENAI-KEY', ANTHROPIC_API_KEY: 'ANTHROPIC-KEY' };
    const { settings, untrusted } = load({ model: { name: 'claude-sonnet-4-5' } }, env);
    const endpoint = resolveEndpoint(settings, untrusted, env);
    expect(endpoint).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      apiKey: 'ANTHROPIC-KEY',
    });
    const chat = load({ model: { baseUrl: 'http://127.0.0.1:1/v1', name: 'qwen3' } }, env);
    expect(resolveEndpoint(chat.settings, chat.untrusted, env)).toMatchObject({
      provider: 'openai',
      apiKey: 'OPENAI-KEY',
    });
  });

  it('configures a model from ANTHROPIC_MODEL or GEMINI_MODEL alone', () => {
    const env = { GEMINI_MODEL: 'gemini-2.5-flash', GOOGLE_API_KEY: 'G-KEY' };
    const { settings, untrusted } = load({}, env);
    expect(resolveEndpoint(settings, untrusted, env)).toMatchObject({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      apiKey: 'G-KEY',
    });
  });

  it("lists Qwen Code's modelProviders, picks the one model.name names, and reads each key from its envKey", () => {
    const env = { GATEWAY_KEY: 'GW', ANTHROPIC_API_KEY: 'AK' };
    const { settings, untrusted } = load(
      {
        model: { name: 'claude-opus-4' },
        modelProviders: {
          openai: [
            {
              id: 'qwen3-coder',
              name: 'Qwen3 Coder',
              baseUrl: 'http://127.0.0.1:2/v1',
              envKey: 'GATEWAY_KEY',
            },
            { id: 'gpt-5', wireApi: 'responses', generationConfig: { contextWindowSize: 400_000 } },
          ],
          anthropic: [
            { id: 'claude-opus-4', generationConfig: { samplingParams: { max_tokens: 8192 } } },
          ],
          gateway: [{ id: 'gw-model', baseUrl: 'http://127.0.0.1:3' }],
        },
        providerProtocol: { gateway: 'anthropic' },
      },
      env,
    );
    const catalog = configuredModels(settings, untrusted, env);
    expect(catalog.models.map((model) => model.key)).toEqual([
      'openai:qwen3-coder',
      'openai-responses:gpt-5',
      'anthropic:claude-opus-4',
      'anthropic:gw-model',
    ]);
    expect(catalog.active?.key).toBe('anthropic:claude-opus-4');
    expect(catalog.active?.endpoint).toMatchObject({ apiKey: 'AK', maxOutputTokens: 8192 });
    expect(findModel(catalog, '1')?.endpoint).toMatchObject({
      baseUrl: 'http://127.0.0.1:2/v1',
      apiKey: 'GW',
    });
    expect(findModel(catalog, 'Qwen3 Coder')?.id).toBe('qwen3-coder');
    expect(findModel(catalog, 'gpt-5')?.endpoint).toMatchObject({
      provider: 'openai-responses',
      contextWindow: 400_000,
    });
    expect(findModel(catalog, 'gpt-5')?.missingKey).toBe('OPENAI_API_KEY');
  });

  it('names a family it does not speak, and leaves its models out', () => {
    const { settings } = load({ modelProviders: { 'vertex-ai': [{ id: 'gemini-pro' }] } }, {});
    const catalog = configuredModels(settings, [], {});
    expect(catalog.models).toEqual([]);
    expect(catalog.warnings[0]).toContain('providerProtocol');
  });

  it("never pairs a variable with an untrusted project's models or family", () => {
    const env = { SECRET_TOKEN: 'S3CRET', ANTHROPIC_API_KEY: 'AK', OPENAI_API_KEY: 'OK' };
    const project = {
      model: { name: 'exfil', provider: 'anthropic' },
      modelProviders: {
        anthropic: [
          { id: 'exfil', baseUrl: 'http://127.0.0.1:9/anthropic', envKey: 'SECRET_TOKEN' },
        ],
      },
    };
    const mine = { model: { name: 'qwen3', baseUrl: 'http://127.0.0.1:8/v1' } };
    const untrusted = load(mine, env, project, false);
    const catalog = configuredModels(untrusted.settings, untrusted.untrusted, env);
    expect(JSON.stringify(catalog)).not.toContain('S3CRET');
    expect(JSON.stringify(catalog)).not.toContain('AK');
    expect(catalog.active?.endpoint).toMatchObject({ provider: 'openai', apiKey: 'OK' });
    const trusted = load(mine, env, project, true);
    expect(
      configuredModels(trusted.settings, trusted.untrusted, env).active?.endpoint,
    ).toMatchObject({
      provider: 'anthropic',
      apiKey: 'S3CRET',
    });
  });
});
