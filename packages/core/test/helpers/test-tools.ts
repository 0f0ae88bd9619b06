/**
 * Small, real tools for exercising the scheduler: they record when they run so tests can
 * see overlap and order, and can ask for confirmation like real tools do.
 */
import {
  BaseTool,
  Kind,
  type ModifyContext,
  type ToolCallConfirmationDetails,
  ToolErrorType,
  type ToolResult,
  type UpdateOutput,
} from '../../src/tools/tools.js';

export interface RunLog {
  events: string[];
  inside: number;
  maxInside: number;
}

export const newRunLog = (): RunLog => ({ events: [], inside: 0, maxInside: 0 });

export interface TestToolParams {
  id?: string;
  path?: string;
  content?: string;
  delayMs?: number;
  output?: string;
  fail?: 'error' | 'throw';
}

const schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    path: { type: 'string' },
    content: { type: 'string' },
    delayMs: { type: 'number', minimum: 0 },
    output: { type: 'string' },
    fail: { type: 'string', enum: ['error', 'throw'] },
  },
};

export class RecordingTool extends BaseTool<TestToolParams> {
  confirmation: ToolCallConfirmationDetails['type'] | undefined;
  rememberAlways: 'tool' | 'tool-handles' | undefined;
  readonly confirmedOutcomes: string[] = [];

  constructor(
    name: string,
    kind: Kind,
    private readonly log: RunLog,
    options: { confirmation?: ToolCallConfirmationDetails['type']; streams?: boolean } = {},
  ) {
    super(name, name, `Test tool ${name}.`, kind, schema, {
      canUpdateOutput: options.streams ?? false,
    });
    this.confirmation = options.confirmation;
  }

  override toolLocations(params: TestToolParams) {
    return params.path ? [{ path: params.path }] : [];
  }

  override async shouldConfirmExecute(
    params: TestToolParams,
  ): Promise<ToolCallConfirmationDetails | false> {
    if (!this.confirmation) return false;
    const onConfirm = (outcome: string) => {
      this.confirmedOutcomes.push(outcome);
    };
    const base = { title: `Run ${this.name}?`, onConfirm, rememberAlways: this.rememberAlways };
    switch (this.confirmation) {
      case 'edit':
        return {
          ...base,
          type: 'edit',
          fileName: 'f',
          filePath: params.path ?? '/f',
          fileDiff: `+${params.content ?? ''}`,
          originalContent: '',
          newContent: params.content ?? '',
          isModifiable: true,
        };
      case 'exec':
        return { ...base, type: 'exec', command: params.id ?? 'cmd', rootCommands: ['cmd'] };
      case 'info':
        return { ...base, type: 'info', prompt: 'fetch', urls: ['https://example.com'] };
      case 'mcp':
        return { ...base, type: 'mcp', serverName: 's', toolName: 't', toolDisplayName: 't' };
      case 'plan':
        return { ...base, type: 'plan', plan: '# plan' };
      case 'elicitation':
        return {
          ...base,
          type: 'elicitation',
          serverName: 's',
          message: 'a question',
          requestedSchema: { type: 'object', properties: {} },
        };
      case 'elicitation_url':
        return {
          ...base,
          type: 'elicitation_url',
          serverName: 's',
          message: 'sign in',
          url: 'https://example.com/sign-in',
          host: 'example.com',
        };
    }
  }

  override getModifyContext(): ModifyContext<TestToolParams> {
    return {
      getFilePath: (params) => params.path ?? '/f',
      getCurrentContent: async () => '',
      getProposedContent: async (params) => params.content ?? '',
      createUpdatedParams: (_old, modified, params) => ({ ...params, content: modified }),
    };
  }

  async execute(
    params: TestToolParams,
    signal: AbortSignal,
    updateOutput?: UpdateOutput,
  ): Promise<ToolResult> {
    const id = params.id ?? this.name;
    this.log.events.push(`start ${id}`);
    this.log.inside++;
    this.log.maxInside = Math.max(this.log.maxInside, this.log.inside);
    try {
      if (params.fail === 'throw') throw new Error('boom');
      updateOutput?.(`partial ${id}`);
      await sleep(params.delayMs ?? 0, signal);
      if (params.fail === 'error') {
        return {
          llmContent: 'it failed',
          returnDisplay: 'it failed',
          error: { type: ToolErrorType.FILE_NOT_FOUND, message: 'it failed' },
        };
      }
      const text =
        params.output ??
        `done ${id}${params.content !== undefined ? ` with ${params.content}` : ''}`;
      return { llmContent: text, returnDisplay: text };
    } finally {
      this.log.inside--;
      this.log.events.push(`end ${id}`);
    }
  }
}

/** Returns an image and some text, to check that nothing is lost on the way to the model. */
export class ImageTool extends BaseTool<Record<string, never>> {
  constructor() {
    super('image_tool', 'Image', 'Returns a picture.', Kind.Read, {
      type: 'object',
      properties: {},
    });
  }
  async execute(): Promise<ToolResult> {
    return {
      llmContent: [
        { text: 'first' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
        { text: 'second' },
      ],
      returnDisplay: 'an image',
    };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms === 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
