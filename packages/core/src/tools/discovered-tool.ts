/**
 * Tools discovered by a command (`tools.discoveryCommand`): the command prints function
 * declarations; each becomes a DiscoveredTool, run as `<callCommand> <name>` with the
 * arguments as JSON on standard input.
 */
import type { Config } from '../config/config.js';
import { shellEnvironment } from '../shell/shell-environment.js';
import { shellQuote } from '../utils/lazy-libraries.js';
import { runProcess } from '../utils/run-process.js';
import {
  BaseTool,
  errorResult,
  type JsonSchema,
  Kind,
  ToolErrorType,
  type ToolExecConfirmationDetails,
  type ToolResult,
} from './tools.js';

export const DISCOVERY_TIMEOUT_MS = 30_000;
export const CALL_TIMEOUT_MS = 120_000;
export const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

export interface DiscoveredDeclaration {
  name: string;
  description: string;
  schema: JsonSchema;
}

/** Splits a configured command as a shell would, without running a shell. */
export function splitCommand(command: string): string[] {
  return shellQuote()
    .parse(command)
    .filter((word): word is string => typeof word === 'string');
}

/** Runs the discovery command; returns the declarations, or one message naming the command and the problem. */
export async function runDiscoveryCommand(
  config: Config,
  command: string,
  timeoutMs = DISCOVERY_TIMEOUT_MS,
): Promise<{ declarations: DiscoveredDeclaration[] } | { error: string }> {
  const words = splitCommand(command);
  const fail = (problem: string) => ({ error: `Tool discovery command "${command}" ${problem}` });
  if (words.length === 0)
    return fail(
      'is empty; set tools.discoveryCommand to a program that prints function declarations.',
    );
  const result = await runProcess(words[0]!, words.slice(1), {
    cwd: config.workspace.projectRoot,
    timeoutMs,
    maxBytes: MAX_OUTPUT_BYTES,
    env: shellEnvironment(process.env, config.settings.tools?.shell?.allowEnv),
  });
  if (result.spawnError) return fail(`could not be started: ${result.spawnError}.`);
  if (result.timedOut) return fail(`did not finish within ${timeoutMs / 1000} s and was stopped.`);
  if (result.overflowed) return fail('printed more than 10 MB and was stopped.');
  if (result.exitCode !== 0) {
    const why = result.signal
      ? `was ended by signal ${result.signal}`
      : `exited with code ${result.exitCode}`;
    return fail(`${why}${result.stderr.trim() ? `: ${result.stderr.trim().slice(0, 500)}` : '.'}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch (error) {
    return fail(
      `printed output that is not JSON (${(error as Error).message}); it must print a JSON array of function declarations.`,
    );
  }
  if (!Array.isArray(parsed))
    return fail(
      'must print a JSON array of function declarations, but printed a JSON object or value.',
    );
  const declarations: DiscoveredDeclaration[] = [];
  const items = parsed.flatMap((item: unknown) => {
    const group = item as { functionDeclarations?: unknown; function_declarations?: unknown };
    const nested = group?.functionDeclarations ?? group?.function_declarations;
    return Array.isArray(nested) ? nested : [item];
  });
  for (const [index, item] of items.entries()) {
    const declaration = item as {
      name?: unknown;
      description?: unknown;
      parameters?: unknown;
      parametersJsonSchema?: unknown;
    };
    if (typeof declaration?.name !== 'string' || declaration.name === '') {
      return fail(
        `printed a declaration without a name (item ${index + 1}); every declaration needs a "name".`,
      );
    }
    const schema = (declaration.parametersJsonSchema ??
      lowerCaseTypes(declaration.parameters) ?? { type: 'object', properties: {} }) as JsonSchema;
    declarations.push({
      name: declaration.name,
      description: typeof declaration.description === 'string' ? declaration.description : '',
      schema,
    });
  }
  return { declarations };
}

/** Gemini-style `parameters` may spell types in capitals (OBJECT, STRING); JSON Schema wants lower case. */
function lowerCaseTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerCaseTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'type' && typeof value === 'string' ? value.toLowerCase() : lowerCaseTypes(value),
    ]),
  );
}

export class DiscoveredTool extends BaseTool<Record<string, unknown>> {
  constructor(
    private readonly config: Config,
    /** The name the call command knows the tool by. */
    readonly originalName: string,
    registryName: string,
    description: string,
    schema: JsonSchema,
    private readonly callCommand: string | undefined,
  ) {
    super(
      registryName,
      originalName,
      `${description}\n\nThis tool comes from the project's tool discovery command. It runs as \`${callCommand ?? '<tools.callCommand>'} ${originalName}\` with the arguments as JSON on standard input; its standard output is the result.`,
      Kind.Other,
      schema,
    );
  }

  override getDescription(params: Record<string, unknown>): string {
    return `${this.callCommand ?? '?'} ${this.originalName} ${JSON.stringify(params)}`;
  }

  override async shouldConfirmExecute(): Promise<ToolExecConfirmationDetails | false> {
    return {
      type: 'exec',
      title: `Run the discovered tool ${this.originalName}?`,
      command: `${this.callCommand ?? '(no tools.callCommand)'} ${this.originalName}`,
      rootCommands: [this.originalName],
      onConfirm: () => undefined,
    };
  }

  async execute(params: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const words = splitCommand(this.callCommand ?? '');
    if (words.length === 0) {
      return errorResult(
        ToolErrorType.DISCOVERED_TOOL_EXECUTION_ERROR,
        `${this.originalName} cannot run: tools.callCommand is not set. The person must set it in settings.`,
      );
    }
    const result = await runProcess(words[0]!, [...words.slice(1), this.originalName], {
      cwd: this.config.workspace.projectRoot,
      input: JSON.stringify(params),
      timeoutMs: CALL_TIMEOUT_MS,
      maxBytes: MAX_OUTPUT_BYTES,
      env: shellEnvironment(process.env, this.config.settings.tools?.shell?.allowEnv),
      signal,
    });
    const stdout = result.stdout.replace(/\s+$/, '');
    const stderr = result.stderr.replace(/\s+$/, '');
    if (result.spawnError) {
      return errorResult(
        ToolErrorType.DISCOVERED_TOOL_EXECUTION_ERROR,
        `The call command "${this.callCommand}" could not be started: ${result.spawnError}`,
      );
    }
    if (result.exitCode === 0 && !result.timedOut && !result.overflowed) {
      const text = stderr ? `${stdout}\n\n--- stderr ---\n${stderr}` : stdout || '(no output)';
      return { llmContent: text, returnDisplay: text };
    }
    const ending = result.timedOut
      ? `timed out after ${CALL_TIMEOUT_MS / 1000} s`
      : result.overflowed
        ? 'printed more than 10 MB and was stopped'
        : result.signal
          ? `was ended by signal ${result.signal}`
          : `exited with code ${result.exitCode}`;
    const message = [
      `${this.originalName} ${ending}.`,
      `Exit code: ${result.exitCode ?? '(none)'}`,
      `Signal: ${result.signal ?? '(none)'}`,
      `Stdout:${stdout ? `\n${stdout}` : ' (empty)'}`,
      `Stderr:${stderr ? `\n${stderr}` : ' (empty)'}`,
    ].join('\n');
    return errorResult(ToolErrorType.DISCOVERED_TOOL_EXECUTION_ERROR, message);
  }
}
