/**
 * `--json-schema` on a scripted model: the final answer must validate; one retry with the
 * validation errors; then an error result (`error_max_structured_output_retries`), in
 * each output format.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Script, startModelServer } from '../../core/test/helpers/model-server.js';
import { modelProject } from './helpers/model-project.js';
import { runCliAsync } from './run-cli.js';

const project = modelProject();

const SCHEMA = {
  type: 'object',
  properties: { files: { type: 'integer' }, summary: { type: 'string' } },
  required: ['files', 'summary'],
  additionalProperties: false,
};

async function run(script: Script, args: string[]) {
  project.server = await startModelServer(script);
  return runCliAsync(args, {
    cwd: project.dirs.root,
    home: project.dirs.home,
    env: {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'scripted-model',
    },
  });
}

function lines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function systemPrompt(index: number): string {
  const first = project.server?.requests[index]?.body.messages[0];
  return typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content);
}

function lastUserText(index: number): string {
  const messages = project.server?.requests[index]?.body.messages ?? [];
  const user = [...messages].reverse().find((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

describe('toolhost -p --json-schema', { timeout: 180_000 }, () => {
  it('a valid answer is the result’s structured_output (json) and the printed value (text)', async () => {
    const schemaFile = path.join(project.dirs.root, 'schema.json');
    writeFileSync(schemaFile, JSON.stringify(SCHEMA));
    const json = await run(
      [{ text: '```json\n{"files": 3, "summary": "three files"}\n```' }],
      ['-p', 'count', '-o', 'json', '--json-schema', 'schema.json'],
    );
    expect(json.code, json.stderr).toBe(0);
    expect(systemPrompt(0)).toContain('"additionalProperties": false');
    const events = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      structured_output: { files: 3, summary: 'three files' },
    });
    await project.server?.close();

    const text = await run(
      [{ text: ' {"files": 1, "summary": "one"} ' }],
      ['-p', 'count', '--json-schema', JSON.stringify(SCHEMA)],
    );
    expect(text.code, text.stderr).toBe(0);
    expect(JSON.parse(text.stdout)).toEqual({ files: 1, summary: 'one' });
  });

  it('an invalid answer is sent back once with what is wrong; the corrected one is the result', async () => {
    const { code, stdout, stderr } = await run(
      [{ text: '{"files": "three"}' }, { text: '{"files": 3, "summary": "fixed"}' }],
      ['-p', 'count', '-o', 'stream-json', '--json-schema', JSON.stringify(SCHEMA)],
    );
    expect(code, stderr).toBe(0);
    expect(project.server?.requests).toHaveLength(2);
    const feedback = lastUserText(1);
    expect(feedback).toContain('files must be integer');
    expect(feedback).toContain('summary is required');
    const result = lines(stdout).at(-1);
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      num_turns: 2,
      structured_output: { files: 3, summary: 'fixed' },
    });
  });

  it('a second invalid answer ends in an error result, and text mode prints no answer', async () => {
    const stream = await run(
      [{ text: 'Three files.' }, { text: '{"files": 3}' }],
      ['-p', 'count', '-o', 'stream-json', '--json-schema', JSON.stringify(SCHEMA)],
    );
    expect(stream.code).toBe(1);
    expect(project.server?.requests).toHaveLength(2);
    expect(lastUserText(1)).toContain('not valid JSON');
    const result = lines(stream.stdout).at(-1);
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_max_structured_output_retries',
      is_error: true,
    });
    expect(result).not.toHaveProperty('structured_output');
    expect(String(result?.error)).toContain('summary is required');
    await project.server?.close();

    const text = await run(
      [{ text: 'Three files.' }, { text: 'Still three.' }],
      ['-p', 'count', '--json-schema', JSON.stringify(SCHEMA)],
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('did not validate against --json-schema');
  });

  it('a schema that is neither JSON nor a file, or not usable, is a usage error', async () => {
    const missing = await run([], ['-p', 'count', '--json-schema', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('neither JSON nor an existing file');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    await project.server?.close();
    const broken = await run([], ['-p', 'count', '--json-schema', '{"type": 12}']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('not a usable schema');
    expect(project.server?.requests).toHaveLength(0);
  });
});
