import { describe, expect, it } from 'vitest';
import { checkSentDeclarations } from './declaration-checks.js';
import { fitDescription, prepareDeclarations, toolNameMap } from './declarations.js';

describe('toolNameMap', () => {
  const declarations = [
    { name: '2fa_code' },
    { name: 'server.tool' },
    { name: 'server/tool' },
    { name: 'server_tool' },
    { name: 'x'.repeat(80) },
    { name: 'read_file' },
  ];

  it('gives Gemini names that start with a letter or _, unique and within 64', () => {
    const names = toolNameMap(declarations, 'gemini');
    const sent = declarations.map((declaration) => names.toProvider(declaration.name));
    expect(sent[0]).toBe('_2fa_code');
    // Gemini takes dots and colons; a name changed into one already taken gets its hash.
    expect(sent[1]).toBe('server.tool');
    expect(sent[3]).toBe('server_tool');
    expect(sent[2]).toMatch(/^server_tool_[0-9a-f]{8}$/);
    expect(sent[4]).toHaveLength(64);
    expect(sent[5]).toBe('read_file');
    expect(new Set(sent).size).toBe(sent.length);
    for (const [index, name] of sent.entries())
      expect(names.toTool(name)).toBe(declarations[index]!.name);
  });

  it('gives Anthropic names up to 128 characters', () => {
    const long = 'x'.repeat(100);
    expect(toolNameMap([{ name: long }], 'anthropic').toProvider(long)).toBe(long);
    expect(toolNameMap([{ name: long }], 'openai-chat').toProvider(long)).toHaveLength(64);
  });

  it('leaves OpenAI names that are already valid alone', () => {
    const names = toolNameMap(declarations, 'openai-chat');
    expect(names.toProvider('2fa_code')).toBe('2fa_code');
    expect(names.toTool('unknown_name')).toBe('unknown_name');
  });
});

describe('fitDescription', () => {
  it('cuts at a sentence, marks the cut and moves the rest into the parameters', () => {
    const description = `${'First sentence here. '.repeat(60)}The end.`;
    const parameters = { type: 'object', properties: {}, description: 'Own text.' };
    const fitted = fitDescription(description, 1024, parameters);
    expect(fitted.description.length).toBeLessThanOrEqual(1024);
    expect(fitted.description).toMatch(
      /\. \[The description continues in the parameters’ description\.\]$/,
    );
    const moved = fitted.parameters.description as string;
    expect(moved).toMatch(/^\(Continued from the tool description\.\) First sentence/);
    expect(moved).toContain('The end.');
    expect(moved.endsWith('Own text.')).toBe(true);
    // Nothing is lost: every sentence is in one of the two places.
    const total =
      (fitted.description.match(/First sentence/g) ?? []).length +
      (moved.match(/First sentence/g) ?? []).length;
    expect(total).toBe(60);
  });

  it('leaves short descriptions and providers without a limit alone', () => {
    const parameters = { type: 'object', properties: {} };
    expect(fitDescription('short', 1024, parameters)).toEqual({ description: 'short', parameters });
    const long = 'y'.repeat(5000);
    expect(fitDescription(long, undefined, parameters).description).toBe(long);
  });
});

describe('prepareDeclarations', () => {
  it('warns when a request carries more tools than the provider takes', () => {
    const warnings: string[] = [];
    const many = Array.from({ length: 130 }, (_, index) => ({ name: `tool_${index}` }));
    prepareDeclarations(many, 'openai-chat', { onWarning: (message) => warnings.push(message) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/130 tools; OpenAI Chat Completions takes at most 128/);
    expect(
      checkSentDeclarations(
        'openai-chat',
        prepareDeclarations(many, 'openai-chat', { onWarning: () => {} }),
      ),
    ).toEqual(['130 tools; OpenAI Chat Completions takes at most 128']);
    prepareDeclarations(many, 'gemini', { onWarning: (message) => warnings.push(message) });
    expect(warnings).toHaveLength(1);
  });

  it('emits the default warning once per process, however often the tools are prepared', async () => {
    const emitted: string[] = [];
    const listener = (warning: Error) => emitted.push(warning.message);
    // Node's own listener prints every warning to stderr; this one is expected, so only the
    // test's listener hears it while it runs.
    const printers = process.listeners('warning');
    for (const printer of printers) process.off('warning', printer);
    process.on('warning', listener);
    try {
      const many = Array.from({ length: 129 }, (_, index) => ({ name: `w_${index}` }));
      prepareDeclarations(many, 'openai-responses');
      prepareDeclarations(many, 'openai-responses');
      // process.emitWarning delivers on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
      for (const printer of printers) process.on('warning', printer);
    }
    expect(emitted.filter((message) => message.includes('129 tools'))).toHaveLength(1);
  });

  it('gives a declaration without parameters an empty object schema', () => {
    const [prepared] = prepareDeclarations([{ name: 'ping', description: 'Pings.' }], 'anthropic');
    expect(prepared?.parameters).toEqual({ type: 'object', properties: {} });
  });
});
