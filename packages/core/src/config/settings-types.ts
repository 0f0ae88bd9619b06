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
  files?: { defaultEncoding?: 'utf-8' | 'utf-8-bom'; legacyEncoding?: string };
  mcp?: { serverCommand?: string; allowed?: string[]; excluded?: string[] };
  mcpServers?: Record<string, McpServerSettings>;
  context?: { fileName?: string | string[] };
  model?: {
    name?: string;
    baseUrl?: string;
    apiKey?: string;
    /** Tokens the model takes in one request (default: what the server says, else known models' size, else 32k). */
    contextWindow?: number;
    /** `max_tokens` of each request (default: a quarter of the context window, 1k to 32k). */
    maxOutputTokens?: number;
    /** Milliseconds until an answer starts, and the longest pause inside a streamed answer. */
    timeout?: number;
    /** Further attempts after a rate limit, server error, reset or timeout. */
    maxRetries?: number;
    /** Media the model takes besides text (defaults known for common model names). */
    modalities?: ('image' | 'audio' | 'video' | 'pdf')[];
  };
  webSearch?: {
    provider?: 'tavily' | 'google' | 'brave' | 'searxng';
    baseUrl?: string;
    searchEngineId?: string;
  };
  security?: { folderTrust?: { enabled?: boolean } };
  /** The interactive terminal's look (`/theme`). */
  ui?: { theme?: 'dark' | 'light' | 'mono' };
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
  context: { fileName: 'AGENTS.md' },
  model: { timeout: 120_000, maxRetries: 4 },
  security: { folderTrust: { enabled: true } },
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
