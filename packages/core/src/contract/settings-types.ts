/** The shape of a settings file after aliases are resolved (see schemas/settings.schema.json). */

export type ApprovalMode = 'plan' | 'default' | 'auto-edit' | 'yolo';
export const APPROVAL_MODES: readonly ApprovalMode[] = ['plan', 'default', 'auto-edit', 'yolo'];

export interface McpServerSettings {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  httpUrl?: string;
  headers?: Record<string, string>;
  /** Milliseconds each call has to answer or report progress. */
  timeout?: number;
  /** Milliseconds the server has to start and list its tools (default: timeout). */
  startTimeout?: number;
  maxTotalTimeout?: number;
  /** Bytes: the largest message read from a stdio server (the SDK's read buffer). */
  maxMessageBytes?: number;
  trust?: boolean;
  includeTools?: string[];
  excludeTools?: string[];
  description?: string;
  /** OAuth for remote servers (on unless enabled is false). */
  oauth?: {
    enabled?: boolean;
    /** client_credentials: tokens for the client itself, nobody signs in. */
    grantType?: 'authorization_code' | 'client_credentials';
    clientId?: string;
    clientSecret?: string;
    /** PEM key for private_key_jwt client authentication (client_credentials). */
    privateKeyFile?: string;
    signingAlgorithm?: string;
    scopes?: string[];
    redirectPort?: number;
    clientMetadataUrl?: string;
  };
}

/** A command hook: run through the shell with the event as JSON on standard input. */
export interface CommandHookSettings {
  type: 'command';
  command: string;
  /** Milliseconds (a number below 1000 is read as seconds, Claude Code's unit). */
  timeout?: number;
  name?: string;
  description?: string;
}

/** Hooks of one event whose matcher fits (a tool name, a session source...). */
export interface HookGroupSettings {
  matcher?: string;
  hooks: CommandHookSettings[];
}

export type HookEventName = keyof HooksSettings;

export const HOOK_EVENTS: readonly HookEventName[] = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
];

/** `hooks`: the events of Qwen Code and Claude Code, each a list of matcher groups. */
export interface HooksSettings {
  PreToolUse?: HookGroupSettings[];
  PostToolUse?: HookGroupSettings[];
  UserPromptSubmit?: HookGroupSettings[];
  Stop?: HookGroupSettings[];
  SubagentStop?: HookGroupSettings[];
  SessionStart?: HookGroupSettings[];
  SessionEnd?: HookGroupSettings[];
  PreCompact?: HookGroupSettings[];
  Notification?: HookGroupSettings[];
}

export interface Settings {
  general?: {
    preferredEditor?: string;
    /** Vim editing in the interactive prompt (`/vim`). */
    vimMode?: boolean;
    /** Snapshots of the files before the agent changes them (toolhost restore). */
    checkpointing?: {
      enabled?: boolean;
      onFailure?: 'stop' | 'continue';
      /** Bytes; larger files are left out of checkpoints (0: no limit). */
      maxFileSize?: number;
      retention?: { maxAgeDays?: number; maxCount?: number };
    };
  };
  tools?: {
    core?: string[];
    allowed?: string[];
    exclude?: string[];
    discoveryCommand?: string;
    callCommand?: string;
    approvalMode?: ApprovalMode;
    truncateOutputThreshold?: number;
    /** Lines of a cut output kept (head and tail together); default: no line limit. */
    truncateOutputLines?: number;
    /** Hold MCP declarations back behind tool_search: true always, false never; default past the budget. */
    deferLoading?: boolean;
    shell?: {
      allowEnv?: string[];
      defaultTimeout?: number;
      keepBackgroundProcesses?: boolean;
      sandbox?: 'auto' | 'on' | 'off';
      network?: 'allow' | 'deny';
      /** Weaker: without the unasked sandbox profile, read-only by parsing alone runs unasked. */
      parseOnlyAutoApproval?: boolean;
    };
    webFetch?: { allowedHosts?: string[] };
  };
  /** Permission rules in Qwen Code's and Claude Code's syntax (permissions/). */
  permissions?: { allow?: string[]; ask?: string[]; deny?: string[] };
  files?: { defaultEncoding?: 'utf-8' | 'utf-8-bom'; legacyEncoding?: string };
  mcp?: { serverCommand?: string; allowed?: string[]; excluded?: string[] };
  mcpServers?: Record<string, McpServerSettings>;
  context?: {
    fileName?: string | string[];
    /** More workspace roots, as --include-directories adds (missing ones skipped with a warning). */
    includeDirectories?: string[];
    /** Read memory files from the includeDirectories' roots too. */
    loadFromIncludeDirectories?: boolean;
    /** Defaults of the listing and search tools' ignore options. */
    fileFiltering?: {
      respectGitIgnore?: boolean;
      /** .toolhostignore, .qwenignore and customIgnoreFiles. */
      respectQwenIgnore?: boolean;
      /** More ignore files at the project root, beside .toolhostignore and .qwenignore. */
      customIgnoreFiles?: string[];
      /** `@` path completion in the terminal looks below the top folder. */
      enableRecursiveFileSearch?: boolean;
    };
  };
  model?: {
    /** The API family; default: what the address or the model name says, else `openai`. */
    provider?: 'openai' | 'openai-responses' | 'anthropic' | 'gemini';
    name?: string;
    baseUrl?: string;
    apiKey?: string;
    /** Tokens the model takes in one request (default: what the server says, else known models' size, else 32k). */
    contextWindow?: number;
    /** `max_tokens` of each request (default: a quarter of the context window, 1k to 32k). */
    maxOutputTokens?: number;
    /**
     * Ask the model to think before it answers (Anthropic extended thinking, Gemini's
     * thinking configuration, OpenAI's reasoning effort), as --thinking; `off` (default): the
     * model's own default.
     */
    thinking?: 'off' | 'low' | 'medium' | 'high';
    /** Milliseconds until an answer starts, and the longest pause inside a streamed answer. */
    timeout?: number;
    /** Further attempts after a rate limit, server error, reset or timeout. */
    maxRetries?: number;
    /** Media the model takes besides text (defaults known for common model names). */
    modalities?: ('image' | 'audio' | 'video' | 'pdf')[];
    /** Model requests one run of the main agent may make; -1 for no limit (as --max-session-turns). */
    maxSessionTurns?: number;
    /** Tool calls one run may make; -1 for no limit (as --max-tool-calls). */
    maxToolCalls?: number;
    /** Seconds one run may take; -1 for no limit (as --max-wall-time). */
    maxWallTimeSeconds?: number;
    /** Levels of subagents below the main agent (default 2; 0: none), as --max-subagent-depth. */
    maxSubagentDepth?: number;
  };
  /**
   * Models `/model` switches between, by family (Qwen Code's `modelProviders`): `openai`,
   * `anthropic`, `gemini`, or a name `providerProtocol` maps to one of them.
   */
  modelProviders?: Record<string, ModelProviderEntry[]>;
  /** Qwen Code's mapping of a custom family name (a gateway) to the API it speaks. */
  providerProtocol?: Record<string, 'openai' | 'openai-responses' | 'anthropic' | 'gemini'>;
  webSearch?: {
    provider?: 'tavily' | 'google' | 'brave' | 'searxng';
    baseUrl?: string;
    searchEngineId?: string;
  };
  security?: {
    folderTrust?: { enabled?: boolean };
    /** Qwen Code's choice of model family (`openai`, `anthropic`, `gemini`), below model.provider. */
    auth?: { selectedType?: string };
  };
  /** The interactive terminal's look (`/theme`). */
  ui?: { theme?: 'dark' | 'light' | 'mono' };
  hooks?: HooksSettings;
  /** Qwen Code's switch: no hook runs while it is true. */
  disableAllHooks?: boolean;
}

/**
 * One configured model (an entry of `modelProviders`), as Qwen Code writes it; its other
 * fields (capabilities, extra_body, ...) are accepted and not used.
 */
export interface ModelProviderEntry {
  /** The model's name in the API. */
  id: string;
  /** What `/model` shows. */
  name?: string;
  description?: string;
  baseUrl?: string;
  /** The environment variable holding its key (default: the family's usual one). */
  envKey?: string;
  /** The key itself (toolhost only; the setup guide writes it when one is typed). */
  apiKey?: string;
  /** For `openai`: `responses` speaks the Responses API. */
  wireApi?: 'chat-completions' | 'responses';
  generationConfig?: {
    timeout?: number;
    maxRetries?: number;
    contextWindowSize?: number;
    customHeaders?: Record<string, string>;
    samplingParams?: { max_tokens?: number; temperature?: number };
  };
}

/** Older flat keys and where they live now. */
export const FLAT_ALIASES: Readonly<Record<string, readonly [string, string]>> = {
  coreTools: ['tools', 'core'],
  allowedTools: ['tools', 'allowed'],
  excludeTools: ['tools', 'exclude'],
  toolDiscoveryCommand: ['tools', 'discoveryCommand'],
  toolCallCommand: ['tools', 'callCommand'],
  mcpServerCommand: ['mcp', 'serverCommand'],
  allowMCPServers: ['mcp', 'allowed'],
  excludeMCPServers: ['mcp', 'excluded'],
  contextFileName: ['context', 'fileName'],
  approvalMode: ['tools', 'approvalMode'],
  checkpointing: ['general', 'checkpointing'],
};

/**
 * What toolhost does when a setting is left out: the code reads its defaults from here, and
 * the schema's `default`s must say the same (settings-schema.test.ts checks both ways).
 * Settings whose default depends on the machine or the model (the editor, the legacy
 * encoding, a model's context window and media) have none here.
 */
export const SETTING_DEFAULTS = {
  general: {
    vimMode: false,
    checkpointing: {
      enabled: true,
      onFailure: 'stop',
      maxFileSize: 10 * 1024 * 1024,
      retention: { maxAgeDays: 30, maxCount: 300 },
    },
  },
  tools: {
    approvalMode: 'default',
    truncateOutputThreshold: 25_000,
    shell: {
      defaultTimeout: 120_000,
      keepBackgroundProcesses: false,
      sandbox: 'auto',
      network: 'allow',
      parseOnlyAutoApproval: false,
    },
  },
  files: { defaultEncoding: 'utf-8' },
  context: {
    fileName: ['AGENTS.md', 'QWEN.md'] as string[],
    includeDirectories: [] as string[],
    loadFromIncludeDirectories: false,
    fileFiltering: {
      respectGitIgnore: true,
      respectQwenIgnore: true,
      customIgnoreFiles: ['.agentignore', '.aiignore'] as string[],
      enableRecursiveFileSearch: true,
    },
  },
  model: {
    timeout: 120_000,
    maxRetries: 4,
    maxSessionTurns: -1,
    maxToolCalls: -1,
    maxWallTimeSeconds: -1,
  },
  security: { folderTrust: { enabled: true } },
  disableAllHooks: false,
  ui: { theme: 'dark' },
} as const satisfies Settings;

/** Defaults of each entry of `mcpServers`. */
export const MCP_SERVER_DEFAULTS = {
  timeout: 60_000,
  maxTotalTimeout: 30 * 60_000,
  /** The MCP SDK's own read buffer for stdio servers. */
  maxMessageBytes: 10 * 1024 * 1024,
  oauth: { enabled: true },
} as const satisfies McpServerSettings;
