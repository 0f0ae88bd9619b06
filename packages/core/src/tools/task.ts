/**
 * task: hands a self-contained piece of work to a subagent, which runs its own agent loop
 * with a fresh conversation, its own system prompt and only its tools, and returns its
 * final answer as this call's result. The agent supplies the runner (tools never import
 * the agent); this file owns only the call's contract.
 */
import type { ApprovalMode } from '../contract/settings-types.js';
import {
  BaseTool,
  errorResult,
  Kind,
  ToolErrorType,
  type ToolExecutionContext,
  type ToolResult,
  type UpdateOutput,
} from './tools.js';

/** A subagent, from a Markdown file with YAML front matter or built in. */
export interface SubagentDefinition {
  name: string;
  description: string;
  /** The body of the file: the subagent's own instructions. */
  systemPrompt: string;
  /** Tool names it may use; undefined means every tool the parent has (but `task` past the depth limit). */
  tools?: string[];
  /** A model name on the same endpoint; undefined means the parent's. */
  model?: string;
  /** The approval mode it asks for (subagent-approval.ts decides what it gets). */
  approvalMode?: ApprovalMode;
  /** Model requests one run may make (default: the runner's). */
  maxTurns?: number;
  /** The color front ends show its name in. */
  color?: string;
  /** Whether the file is the project's (not the person's own, not built in). */
  fromProject?: boolean;
  /** The file it came from, or `built-in`. */
  source: string;
}

export interface SubagentRequest {
  definition: SubagentDefinition;
  description: string;
  prompt: string;
  /** The id of the `task` call that asked for the subagent, when the caller knows it. */
  parentCallId?: string;
}

export interface SubagentOutcome {
  /** The subagent's final answer (or its last words when it stopped early). */
  text: string;
  /** `success`, or why it stopped (`max_turns`, `cancelled`, `error`, ...). */
  status: string;
  turns: number;
  toolCalls: number;
  message?: string;
}

export interface SubagentRunner {
  run(
    request: SubagentRequest,
    signal: AbortSignal,
    progress: (line: string) => void,
  ): Promise<SubagentOutcome>;
}

export interface TaskToolParams {
  description: string;
  prompt: string;
  subagent_type: string;
}

export class TaskTool extends BaseTool<TaskToolParams> {
  static readonly Name = 'task';

  constructor(
    private readonly definitions: SubagentDefinition[],
    private readonly runner: SubagentRunner,
  ) {
    super(
      TaskTool.Name,
      'Task',
      describeTool(definitions),
      Kind.Other,
      {
        type: 'object',
        properties: {
          description: {
            type: 'string',
            description: 'A short title for the work, three to five words.',
          },
          prompt: {
            type: 'string',
            description:
              'Everything the subagent needs: the goal, what is known, where to look, and what to report back. It sees nothing of this conversation.',
          },
          subagent_type: {
            type: 'string',
            enum: definitions.map((definition) => definition.name),
            description: 'Which subagent does the work.',
          },
        },
        required: ['description', 'prompt', 'subagent_type'],
      },
      { canUpdateOutput: true, runsInParallel: true },
    );
  }

  protected override validateSemantics(params: TaskToolParams): string | null {
    if (params.prompt.trim() === '') return 'prompt must describe the work for the subagent';
    return null;
  }

  override getDescription(params: TaskToolParams): string {
    return `${params.subagent_type}: ${params.description}`;
  }

  async execute(
    params: TaskToolParams,
    signal: AbortSignal,
    updateOutput?: UpdateOutput,
    context?: ToolExecutionContext,
  ): Promise<ToolResult> {
    const definition = this.definitions.find((d) => d.name === params.subagent_type);
    if (!definition) {
      return errorResult(
        ToolErrorType.INVALID_TOOL_PARAMS,
        `There is no subagent "${params.subagent_type}"; use one of: ${this.definitions.map((d) => d.name).join(', ')}.`,
      );
    }
    const lines: string[] = [];
    const progress = (line: string) => {
      lines.push(line);
      updateOutput?.(lines.slice(-20).join('\n'));
    };
    const outcome = await this.runner.run(
      {
        definition,
        description: params.description,
        prompt: params.prompt,
        ...(context?.callId ? { parentCallId: context.callId } : {}),
      },
      signal,
      progress,
    );
    const summary = `${definition.name} finished "${params.description}" after ${outcome.turns} model request${outcome.turns === 1 ? '' : 's'} and ${outcome.toolCalls} tool call${outcome.toolCalls === 1 ? '' : 's'}`;
    if (outcome.status === 'success') {
      return { llmContent: outcome.text, returnDisplay: `${summary}.\n\n${outcome.text}` };
    }
    const why = outcome.message ?? outcome.status;
    const partial = outcome.text
      ? `\nIts last words before stopping:\n${outcome.text}`
      : '\nIt gave no answer.';
    return errorResult(
      ToolErrorType.EXECUTION_FAILED,
      `The subagent ${definition.name} stopped before finishing: ${why}${partial}`,
      `${summary}, stopped early: ${why}`,
    );
  }
}

function describeTool(definitions: SubagentDefinition[]): string {
  const list = definitions.map((d) => `- ${d.name}: ${d.description}`).join('\n');
  return `Starts a subagent: a separate agent with a fresh conversation that works on its own with its own tools, then returns one final report as this call's result. Use it for broad searches and self-contained side tasks, so their details stay out of this conversation. Several task calls in one answer run side by side. The subagent cannot see this conversation: the prompt must carry the goal, the facts it needs and what to report. Check its report before relying on it.

Available subagents:
${list}`;
}
