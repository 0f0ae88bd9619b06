/**
 * The OpenAI Responses, Anthropic, Gemini and AI SDK adapters through the real SDKs: real
 * tools run by the scheduler in a temporary workspace, one turn of results converted at
 * once, sent to a recording server on 127.0.0.1, and what went over the wire checked.
 */
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import Anthropic from '@anthropic-ai/sdk';
import { type Content, type Tool as GeminiSdkTool, GoogleGenAI } from '@google/genai';
import { generateText, jsonSchema, stepCountIs, type ToolSet } from 'ai';
import OpenAI from 'openai';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionCall } from '../src/contract/content.js';
import { toAISDKTools } from '../src/providers/ai-sdk.js';
import { toAnthropicToolResults, toAnthropicTools } from '../src/providers/anthropic.js';
import { toGeminiFunctionResponses, toGeminiTools } from '../src/providers/gemini.js';
import { toResponsesToolOutputs, toResponsesTools } from '../src/providers/openai-responses.js';
import { CoreToolScheduler } from '../src/scheduler/core-tool-scheduler.js';
import type { CompletedToolCall } from '../src/scheduler/tool-call-types.js';
import { createToolRegistry } from '../src/tools/builtin.js';
import type { ToolRegistry } from '../src/tools/tool-registry.js';
import {
  type RecordingApiServer,
  startRecordingApiServer,
  toolCallReply,
} from './helpers/recording-api-server.js';
import { FIXTURES, makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let server: RecordingApiServer;
let workspace: TempWorkspace;
let registry: ToolRegistry;
let calls: Required<FunctionCall>[];
let completed: CompletedToolCall[];

beforeAll(async () => {
  workspace = makeWorkspace();
  for (const name of ['pixel.png', 'colors-3x2.bmp', 'tone.ogg', 'page.pdf'])
    copyFileSync(path.join(FIXTURES, name), workspace.p(name));
  server = await startRecordingApiServer([
    toolCallReply('call_ai_1', 'read_file', { absolute_path: workspace.p('pixel.png') }),
    null,
    toolCallReply('call_ai_2', 'run_shell_command', {
      command: `touch ${workspace.p('canary')}`,
      is_background: false,
    }),
  ]);
  registry = createToolRegistry(workspace.config);
  calls = [
    { id: 'call_png', name: 'read_file', args: { absolute_path: workspace.p('pixel.png') } },
    { id: 'call_bmp', name: 'read_file', args: { absolute_path: workspace.p('colors-3x2.bmp') } },
    { id: 'call_ogg', name: 'read_file', args: { absolute_path: workspace.p('tone.ogg') } },
    { id: 'call_pdf', name: 'read_file', args: { absolute_path: workspace.p('page.pdf') } },
    { id: 'call_bad', name: 'read_file', args: { absolute_path: workspace.p('missing.txt') } },
  ];
  const scheduler = new CoreToolScheduler({ config: workspace.config, toolRegistry: registry });
  completed = await scheduler.schedule(calls, new AbortController().signal);
});
afterAll(async () => {
  await server.close();
  workspace.cleanup();
});

describe('OpenAI Responses on the wire', () => {
  it('sends strict function tools and one function_call_output per call with its media', async () => {
    const tools: FunctionTool[] = toResponsesTools(registry.getFunctionDeclarations());
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Look at these files.' },
      ...calls.map(
        (call): ResponseInputItem => ({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.args),
        }),
      ),
      ...toResponsesToolOutputs(completed),
    ];
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    const reply = await client.responses.create({ model: 'gpt-4o', input, tools });
    expect(reply.output_text).toBe('done');

    const body = server.lastBody() as {
      tools: { name: string; strict: boolean }[];
      input: { type?: string; call_id?: string; output?: unknown }[];
    };
    expect(body.tools.filter((tool) => tool.strict).length).toBeGreaterThan(8);
    const outputs = body.input.filter((item) => item.type === 'function_call_output');
    expect(outputs.map((item) => item.call_id)).toEqual(calls.map((call) => call.id));
    const [png, bmp, ogg, pdf, bad] = outputs.map((item) => item.output) as [
      { type: string; text?: string; image_url?: string; filename?: string }[],
      { type: string; image_url?: string }[],
      string,
      { type: string; filename?: string; file_data?: string }[],
      string,
    ];
    expect(png.map((item) => item.type)).toEqual(['input_text', 'input_image']);
    expect(bmp[1]?.image_url).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(ogg).toContain('OpenAI Responses does not take audio in tool results');
    expect(pdf[1]).toMatchObject({ type: 'input_file', filename: 'page.pdf' });
    expect(pdf[1]?.file_data).toMatch(/^data:application\/pdf;base64,/);
    expect(bad).toMatch(/^Error: (?!Error)/);
  });
});

describe('Anthropic Messages on the wire', () => {
  it('sends input_schema tools and one user message of tool_result blocks', async () => {
    const tools: Anthropic.Tool[] = toAnthropicTools(registry.getFunctionDeclarations());
    const results: Anthropic.MessageParam = toAnthropicToolResults(completed, {
      model: 'claude-for-tests',
    });
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
    const reply = await client.messages.create({
      model: 'claude-for-tests',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'Look at these files.' },
        {
          role: 'assistant',
          content: calls.map((call) => ({
            type: 'tool_use' as const,
            id: call.id,
            name: call.name,
            input: call.args,
          })),
        },
        results,
      ],
    });
    expect(reply.content[0]).toMatchObject({ type: 'text', text: 'done' });

    const body = server.lastBody() as {
      tools: { name: string; input_schema: { type: string } }[];
      messages: {
        role: string;
        content: {
          type: string;
          tool_use_id?: string;
          is_error?: boolean;
          content?: {
            type: string;
            title?: string;
            text?: string;
            source?: { media_type: string };
          }[];
        }[];
      }[];
    };
    expect(body.tools.every((tool) => tool.input_schema.type === 'object')).toBe(true);
    const blocks = body.messages[2]!.content;
    expect(blocks.map((block) => [block.type, block.tool_use_id])).toEqual(
      calls.map((call) => ['tool_result', call.id]),
    );
    expect(blocks[0]?.content?.map((item) => item.type)).toEqual(['text', 'image']);
    expect(blocks[1]?.content?.[1]?.source?.media_type).toBe('image/png');
    expect(blocks[2]?.content?.[0]?.text).toContain(
      'was left out: this model does not take audio.',
    );
    expect(blocks[3]?.content?.[1]).toMatchObject({ type: 'document', title: 'page.pdf' });
    expect(blocks[4]?.is_error).toBe(true);
  });
});

describe('Gemini on the wire', () => {
  it('sends parametersJsonSchema and function responses with their media parts', async () => {
    const tools: GeminiSdkTool[] = toGeminiTools(registry.getFunctionDeclarations());
    const responses: Content = toGeminiFunctionResponses(completed, { model: 'gemini-2.5-pro' });
    const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const reply = await client.models.generateContent({
      model: 'gemini-2.5-pro',
      contents: [
        { role: 'user', parts: [{ text: 'Look at these files.' }] },
        { role: 'model', parts: calls.map((call) => ({ functionCall: call })) },
        responses,
      ],
      config: { tools },
    });
    expect(reply.text).toBe('done');

    const body = server.lastBody() as {
      tools: { functionDeclarations: { name: string; parametersJsonSchema?: unknown }[] }[];
      contents: {
        role: string;
        parts: {
          text?: string;
          inlineData?: { mimeType: string };
          functionResponse?: {
            id: string;
            name: string;
            response: Record<string, string>;
            parts?: { inlineData: { mimeType: string; displayName?: string } }[];
          };
        }[];
      }[];
    };
    const declarations = body.tools[0]!.functionDeclarations;
    expect(
      declarations.every((declaration) => declaration.parametersJsonSchema !== undefined),
    ).toBe(true);
    const parts = body.contents[2]!.parts;
    const responsesSent = parts
      .filter((part) => part.functionResponse)
      .map((part) => part.functionResponse!);
    expect(responsesSent.map((response) => response.id)).toEqual(calls.map((call) => call.id));
    expect(responsesSent[0]?.parts?.[0]?.inlineData.mimeType).toBe('image/png');
    expect(responsesSent[1]?.parts?.[0]?.inlineData).toMatchObject({
      mimeType: 'image/png',
      displayName: 'colors-3x2.png',
    });
    expect(responsesSent[3]?.parts?.[0]?.inlineData.mimeType).toBe('application/pdf');
    expect(responsesSent[4]?.response.error).toMatch(/missing\.txt/);
    // Gemini takes OGG, but not inside a function response: it follows as its own part.
    expect(parts.slice(calls.length).map((part) => part.text ?? part.inlineData?.mimeType)).toEqual(
      ['tone.ogg from the read_file call call_ogg:', 'audio/ogg'],
    );
  });
});

describe('AI SDK on the wire', () => {
  it('runs a tool through the scheduler and keeps approval with the person', async () => {
    const tools: ToolSet = toAISDKTools({ config: workspace.config, registry, jsonSchema });
    const provider = createOpenAICompatible({
      name: 'recording',
      baseURL: `${server.url}/v1`,
      apiKey: 'test-key',
    });
    const first = await generateText({
      model: provider('test-model'),
      tools,
      prompt: 'Show me the picture.',
      stopWhen: stepCountIs(2),
    });
    const step = first.steps[0]!;
    expect(step.toolResults[0]?.toolName).toBe('read_file');
    const followUp = server.recorded[server.recorded.length - 1]!.body as {
      messages: { role: string; tool_call_id?: string; content: unknown }[];
    };
    const toolMessage = followUp.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_ai_1');
    expect(JSON.stringify(toolMessage?.content)).toContain('image/png');
    const output = step.toolResults[0]?.output as { display: unknown; responseParts: unknown[] };
    expect(output.display).toMatch(/pixel\.png/);

    // A command in default mode needs approval: the AI SDK asks, nothing runs.
    const second = await generateText({
      model: provider('test-model'),
      tools,
      prompt: 'Touch the canary.',
      stopWhen: stepCountIs(2),
    });
    expect(second.content.some((part) => part.type === 'tool-approval-request')).toBe(true);
    expect(existsSync(workspace.p('canary'))).toBe(false);

    // The person approves through the AI SDK: the call runs once, through the scheduler.
    const request = second.content.find((part) => part.type === 'tool-approval-request');
    if (request?.type !== 'tool-approval-request') throw new Error('no approval request');
    await generateText({
      model: provider('test-model'),
      tools,
      messages: [
        { role: 'user', content: 'Touch the canary.' },
        ...second.response.messages,
        {
          role: 'tool',
          content: [
            { type: 'tool-approval-response', approvalId: request.approvalId, approved: true },
          ],
        },
      ],
    });
    expect(existsSync(workspace.p('canary'))).toBe(true);
  });
});
