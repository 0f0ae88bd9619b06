/**
 * The interactive terminal's first start with no model configured: four questions (the
 * API, its address, the model, where its key is) instead of exiting, answered in the
 * terminal before the app opens, and saved to the person's settings
 * (~/.toolhost/settings.json) as a `modelProviders` entry that `model.name` selects, so
 * `/model` lists it. Headless runs never come here: they exit with the instructions.
 */
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { editSettingsFile, userSettingsDir } from '@toolhost/core/config';
import {
  DEFAULT_BASE_URLS,
  KEY_VARIABLES,
  type ModelProvider,
  PROVIDER_LABELS,
} from '@toolhost/core/conversation';
import { dropTypeahead, readSecret, wrapForTerminal } from './input/raw-questions.js';

const CHOICES: ReadonlyArray<{ provider: ModelProvider; examples: string; model?: string }> = [
  {
    provider: 'openai',
    examples: 'OpenAI, DashScope, OpenRouter, vLLM, Ollama, llama.cpp',
  },
  { provider: 'anthropic', examples: 'Claude', model: 'claude-sonnet-4-5' },
  { provider: 'gemini', examples: 'Gemini API', model: 'gemini-2.5-pro' },
  { provider: 'openai-responses', examples: "OpenAI's newer API", model: 'gpt-5' },
];

/** An environment variable's name, as opposed to a key typed in. */
const VARIABLE_NAME = /^[A-Z_][A-Z0-9_]*$/;

export interface SetupAnswers {
  provider: ModelProvider;
  baseUrl: string;
  model: string;
  key: { variable: string } | { value: string } | undefined;
}

/** Asks, saves and returns true; false when the person left (Ctrl+C, end of input). */
export async function guideModelSetup(
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
  env: NodeJS.ProcessEnv = process.env,
  homeDir?: string,
): Promise<boolean> {
  const say = (text: string) => io.stdout.write(`${wrapForTerminal(text, io.stdout.columns)}\n`);
  say('\nNo model is configured yet. Four questions set one up (Ctrl+C leaves).\n');
  // Keys typed before the questions were on screen are not answers.
  if (io.stdin.isTTY && (await dropTypeahead(io.stdin)) === 'quit') return false;
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: true });
  const left = new AbortController();
  rl.on('SIGINT', () => left.abort());
  rl.on('close', () => left.abort());
  try {
    const answers = await ask(rl, say, left.signal, env, io);
    if (!answers) return false;
    const file = path.join(userSettingsDir(homeDir), 'settings.json');
    await saveModel(file, answers);
    say(
      `\nSaved to ${file}. /model lists the models configured there; add more under modelProviders.\n`,
    );
    return true;
  } catch {
    return false;
  } finally {
    rl.close();
    io.stdin.pause();
  }
}

async function ask(
  rl: Interface,
  say: (text: string) => void,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
): Promise<SetupAnswers | undefined> {
  const question = async (prompt: string, fallback = ''): Promise<string> => {
    const answer = await rl.question(`${prompt}${fallback ? ` [${fallback}]` : ''}: `, { signal });
    return answer.trim() || fallback;
  };
  say('Which API does the model speak?');
  for (const [index, choice] of CHOICES.entries())
    say(`  ${index + 1}. ${PROVIDER_LABELS[choice.provider]} (${choice.examples})`);
  let choice: (typeof CHOICES)[number] | undefined;
  while (!choice) {
    const answer = await question(`Choose 1-${CHOICES.length}`, '1');
    choice = CHOICES[Number(answer) - 1];
    if (!choice) say(`Type a number from 1 to ${CHOICES.length}.`);
  }
  const { provider } = choice;
  let baseUrl = '';
  while (!baseUrl) {
    const answer = await question('Address of the API', DEFAULT_BASE_URLS[provider]);
    if (/^https?:\/\/[^\s/]+/.test(answer)) baseUrl = answer;
    else
      say('An address starts with http:// or https://, e.g. http://localhost:11434/v1 for Ollama.');
  }
  let model = '';
  while (!model) {
    model = await question('Model name', choice.model);
    if (!model) say('The model name is needed, e.g. qwen3-coder-plus or llama3.1.');
  }
  const variable = KEY_VARIABLES[provider][0]!;
  const hosted = baseUrl === DEFAULT_BASE_URLS[provider];
  say(
    `The API key: the name of the environment variable that holds it (such as ${variable}), or the key itself; "none" if the server needs none.`,
  );
  const fallback = env[variable] || hosted ? variable : 'none';
  let answer: string;
  if (io.stdin.isTTY) {
    // A key typed in is never shown: its characters are masked as they are typed.
    rl.close();
    io.stdout.write(`Key [${fallback}]: `);
    const typed = await readSecret(io.stdin, io.stdout);
    if (typed === undefined) return undefined;
    answer = typed.trim() || fallback;
    if (VARIABLE_NAME.test(answer)) say(`(the key is read from $${answer})`);
  } else answer = await question('Key', fallback);
  const key: SetupAnswers['key'] =
    answer.toLowerCase() === 'none'
      ? undefined
      : VARIABLE_NAME.test(answer)
        ? { variable: answer }
        : { value: answer };
  if (key && 'variable' in key && !env[key.variable])
    say(
      `${key.variable} is not set now: export it before the next start, or requests will be refused.`,
    );
  return { provider, baseUrl, model, key };
}

/** The answers as a `modelProviders` entry that `model.name` and `model.provider` select. */
export async function saveModel(file: string, answers: SetupAnswers): Promise<void> {
  const responses = answers.provider === 'openai-responses';
  const entry = {
    id: answers.model,
    baseUrl: answers.baseUrl,
    ...(responses ? { wireApi: 'responses' } : {}),
    ...(answers.key && 'variable' in answers.key ? { envKey: answers.key.variable } : {}),
    ...(answers.key && 'value' in answers.key ? { apiKey: answers.key.value } : {}),
  };
  await editSettingsFile(
    { file, followLink: true, secret: Boolean(answers.key && 'value' in answers.key) },
    () => [
      { path: ['modelProviders', responses ? 'openai' : answers.provider, -1], value: entry },
      { path: ['model', 'provider'], value: answers.provider },
      { path: ['model', 'name'], value: answers.model },
    ],
  );
}
