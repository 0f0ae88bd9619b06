/** @toolhost/core: the Tools API of a coding agent. */

// The agent: model client and loop
export type * from './agent/agent-events.js';
export {
  type AgentLimits,
  AgentLoop,
  type AgentLoopOptions,
  type HistoryCompressor,
} from './agent/agent-loop.js';
export { changingCalls } from './agent/checkpoints/batch-changes.js';
export {
  CheckpointStore,
  type CheckpointStoreOptions,
  historyDir,
  type NewCheckpoint,
  projectId,
  type TakenCheckpoint,
} from './agent/checkpoints/checkpoint-store.js';
export type { Checkpoint, CheckpointToolCall } from './agent/checkpoints/checkpoint-types.js';
export {
  type BatchCheckpoint,
  type BatchOwner,
  Checkpointer,
  type CheckpointerOptions,
  type CheckpointFailurePolicy,
  type CheckpointHook,
} from './agent/checkpoints/checkpointer.js';
export {
  type CheckpointProject,
  type CheckpointRestore,
  checkpointChangedFiles,
  checkpointFileContent,
  checkpointLimits,
  checkpointRestorePreview,
  describeCheckpoint,
  findCheckpoint,
  listCheckpoints,
  type RestoredConversation,
  restoreCheckpoint,
} from './agent/checkpoints/restore-checkpoint.js';
export type { RestoredFiles } from './agent/checkpoints/restore-files.js';
export { CheckpointError } from './agent/checkpoints/shadow-git.js';
export { describeSkipped, type SkippedFile } from './agent/checkpoints/snapshot.js';
export { type CompressionOptions, ContextCompressor } from './agent/compression.js';
export type { ConversationRecorder } from './agent/conversation-recorder.js';
export {
  type Agent,
  type AgentOptions,
  createAgent,
} from './agent/create-agent.js';
export {
  describeEnvironment,
  type EnvironmentFacts,
  environmentFacts,
} from './agent/environment.js';
export { type LoopDetectionOptions, LoopDetector } from './agent/loop-detection.js';
export {
  type SessionRecord,
  SessionRecorder,
  sessionFile,
  sessionsDir,
} from './agent/sessions/session-file.js';
export {
  completeLength,
  findSession,
  type LoadedSession,
  listSessions,
  loadSession,
  loadSessionAtCheckpoint,
  type SessionSummary,
} from './agent/sessions/session-loader.js';
export { pageExtractor } from './agent/side-requests.js';
export { GENERAL_PURPOSE } from './agent/subagents/builtin-subagents.js';
export {
  type LoadedSubagents,
  loadSubagents,
  parseSubagentFile,
  subagentFolders,
} from './agent/subagents/subagent-files.js';
export {
  LoopSubagentRunner,
  type SubagentRunnerOptions,
} from './agent/subagents/subagent-runner.js';
export { buildSystemPrompt, type SystemPromptOptions } from './agent/system-prompt.js';
export {
  ApprovalMemory,
  activeApprovalMemory,
  withApprovalMemory,
} from './config/approval-memory.js';
export {
  Config,
  type ConfigParameters,
  DEFAULT_CONTEXT_FILE_NAME,
  DEFAULT_CONTEXT_FILE_NAMES,
  DEFAULT_TRUNCATE_THRESHOLD,
  type LoadConfigOptions,
} from './config/config.js';
// Configuration and settings
export {
  PROMPT_FOLDER_ROOTS,
  SKILL_FOLDERS,
  SUBAGENT_FOLDERS,
  USER_COMMAND_FOLDERS,
} from './config/prompt-folders.js';
export { saveUserSetting } from './config/save-setting.js';
export {
  APPROVAL_MODES,
  type ApprovalMode,
  formatSettingsWarning,
  getSettingsSchema,
  type LoadedSettings,
  type LoadSettingsOptions,
  loadSettings,
  MCP_SERVER_DEFAULTS,
  type McpServerSettings,
  mergeSettings,
  SETTING_DEFAULTS,
  type Settings,
  type SettingsFile,
  type SettingsWarning,
  settingsSchemaPath,
  userSettingsDir,
} from './config/settings.js';
export {
  folderTrustLevel,
  isFolderTrusted,
  setFolderTrust,
  type TrustLevel,
  trustedFoldersPath,
} from './config/trusted-folders.js';
// Content and conversions
export * from './contract/content.js';
// The model endpoint settings configure
export { HOW_TO_CONFIGURE_MODEL, resolveEndpoint } from './endpoints/endpoints.js';
export {
  type ConfiguredModel,
  configuredModels,
  findModel,
  type ModelCatalog,
} from './endpoints/model-catalog.js';
// Hooks from settings (createAgent makes them from the Config by itself)
export {
  type ConfiguredHook,
  type HookOutcome,
  HookRunner,
  listHooks,
  type PermissionDecision,
} from './hooks/hook-runner.js';
export {
  createToolhostMcpServer,
  type ToolhostMcpServerOptions,
  toCallToolResult,
} from './mcp/mcp-server.js';
export { serveMcpOverStdio } from './mcp/stdio-opening.js';
export { annotationsForKind } from './mcp/tool-listing.js';
export type { OfferedPrompt, PromptSource, RenderedPrompt } from './mcp/workspace-offerings.js';
export { DEFAULT_MEMORY_LIMIT, type LoadedMemory, loadMemory } from './memory/load-memory.js';
export {
  addMemoryEntry,
  MEMORY_SECTION_HEADING,
  type MemoryScope,
  memoryFilePath,
} from './memory/memory-file.js';
export { type LearnedContextWindow, learnContextWindow } from './models/context-window.js';
export {
  contextWindowFor,
  DEFAULT_CONTEXT_WINDOW,
  defaultMaxOutputTokens,
  type ModelEndpoint,
} from './models/endpoint.js';
export {
  type GenerateOptions,
  ModelClient,
  type ModelClientOptions,
} from './models/model-client.js';
export { ModelError, type ModelErrorKind } from './models/model-errors.js';
export type * from './models/model-types.js';
export {
  inferProvider,
  MODEL_PROVIDERS,
  type ModelProvider,
  PROVIDER_LABELS,
} from './models/provider.js';
export { DEFAULT_RETRY_OPTIONS, type RetryOptions } from './models/retry-policy.js';
export {
  estimateTokens,
  type TokenUsage,
  UsageTracker,
} from './models/token-usage.js';
export {
  type CallFacts,
  decideCall,
  shellPolicyRules,
  type Verdict,
} from './permissions/decision.js';
export { configuredServers } from './permissions/mcp-servers.js';
export {
  type PermissionRule,
  parseRule,
  type RuleList,
  type RuleSet,
  rulesFromSettings,
} from './permissions/permission-rules.js';
// Model API adapters
export * from './providers/index.js';
export {
  approvalModesThatSkip,
  CoreToolScheduler,
  type CoreToolSchedulerOptions,
} from './scheduler/core-tool-scheduler.js';
export { editInExternalEditor, resolveEditorCommand } from './scheduler/external-editor.js';
export { convertToFunctionResponse, createErrorResponse } from './scheduler/function-response.js';
export { type TruncatedOutput, truncateAndSave } from './scheduler/output-truncation.js';
export type * from './scheduler/tool-call-types.js';
export { visibleConfirmation } from './scheduler/visible-confirmation.js';
export { type BackgroundProcess, BackgroundProcesses } from './shell/background-processes.js';
export {
  analyzeCommand,
  type CommandAnalysis,
  type ShellCommand,
} from './shell/command-analysis.js';
export { type ShellRule, shellPattern, shellRules } from './shell/command-rules.js';
export { type ReadOnlyContext, readOnlyProblem } from './shell/read-only-check.js';
export { READ_ONLY_COMMANDS } from './shell/read-only-commands.js';
export { CREDENTIAL_LOCATIONS } from './shell/sandbox/profiles/credentials.js';
export {
  PROFILE_SUMMARIES,
  type ProfileName,
  profileFor,
} from './shell/sandbox/profiles/profiles.js';
export {
  CommandSandbox,
  type SandboxStatus,
  sandboxFailureHint,
  sandboxStatus,
} from './shell/sandbox/sandbox.js';
export { shellEnvironment, withoutSecrets } from './shell/shell-environment.js';
export {
  runShellCommand,
  type ShellRunResult,
  shellProgram,
  stripAnsi,
} from './shell/shell-execution.js';
export { decideShell, type ShellDecision } from './shell/shell-permissions.js';
// Skills (createAgent offers them through the skill tool by itself)
export {
  type LoadedSkills,
  loadSkills,
  type SkillDefinition,
  skillFolders,
} from './skills/skill-files.js';
export { SkillTool, skillToolFor } from './skills/skill-tool.js';
// Tools
export { type BuiltinOptions, createToolRegistry } from './tools/builtin.js';
export {
  DeferredTools,
  MAX_DECLARED_TOOLS,
  MCP_SHARE_OF_WINDOW,
  type ToolMatch,
} from './tools/deferred-tools.js';
export { DiscoveredTool, runDiscoveryCommand, splitCommand } from './tools/discovered-tool.js';
export { EditTool, type EditToolParams } from './tools/edit.js';
export {
  applyReplacements,
  type MatchOutcome,
  type MatchStrategy,
  planReplacements,
} from './tools/edit-matching.js';
export { type ExitPlanModeParams, ExitPlanModeTool } from './tools/exitPlanMode.js';
export { GlobTool, type GlobToolParams } from './tools/glob.js';
export { GrepTool, type GrepToolParams } from './tools/grep.js';
export { type GrepEngineName, isCaseInsensitive } from './tools/grep-engines.js';
export { LsTool, type LsToolParams } from './tools/ls.js';
export {
  completeAnswers,
  type ElicitationField,
  elicitationFields,
  parseFieldAnswer,
} from './tools/mcp/elicitation.js';
export {
  assignToolNames,
  mcpQualifiedName,
  mcpQualifiedNameOf,
  namesServerTool,
  validToolName,
} from './tools/mcp/names.js';
export { McpAuthRequiredError } from './tools/mcp/oauth.js';
export { McpOAuthStore, oauthFile } from './tools/mcp/oauth-store.js';
export type { McpPrompt, McpResource, McpResourceTemplate } from './tools/mcp/offerings.js';
export { type SignInOptions, signInToMcpServer, signOutOfMcpServer } from './tools/mcp/sign-in.js';
export { stdioEnvironment } from './tools/mcp/transport.js';
export { McpServerConnection, type McpServerStatus } from './tools/mcp-client.js';
export { DiscoveredMCPTool, mcpContentToParts } from './tools/mcp-tool.js';
export { MemoryTool, type SaveMemoryParams } from './tools/memoryTool.js';
export { ReadFileTool, type ReadFileToolParams } from './tools/read-file.js';
export {
  DEFAULT_EXCLUDES,
  type ReadManyFilesParams,
  ReadManyFilesTool,
} from './tools/read-many-files.js';
export {
  DEFAULT_SHELL_TIMEOUT_MS,
  MAX_SHELL_TIMEOUT_MS,
  ShellTool,
  type ShellToolParams,
} from './tools/shell.js';
export {
  type SubagentDefinition,
  type SubagentOutcome,
  type SubagentRequest,
  type SubagentRunner,
  TaskTool,
  type TaskToolParams,
} from './tools/task.js';
export { type TodoWriteParams, TodoWriteTool } from './tools/todoWrite.js';
export {
  DuplicateToolError,
  TOOL_NAME_ALIASES,
  ToolRegistry,
  type ToolSource,
} from './tools/tool-registry.js';
export { type ToolSearchParams, ToolSearchTool } from './tools/tool-search.js';
export * from './tools/tools.js';
export {
  type ContentProcessor,
  rawUrl,
  type WebFetchOptions,
  WebFetchTool,
  type WebFetchToolParams,
} from './tools/web-fetch.js';
export { WebSearchTool, type WebSearchToolParams } from './tools/web-search.js';
export { configureSearch, HOW_TO_CONFIGURE } from './tools/web-search-setup.js';
export { WriteFileTool, type WriteFileToolParams } from './tools/write-file.js';
export { FileWriteError, writeFileAtomic } from './utils/atomic-write.js';
// Shared services
export { closestNames } from './utils/closest-names.js';
export * from './utils/file-content.js';
export { type ChangeStage, diffStat, makeFileDiff } from './utils/file-diff.js';
export { type ListFilesOptions, type ListingEngine, listFiles } from './utils/file-listing.js';
export { type LoadedFile, loadFileForModel, splitLines } from './utils/file-loader.js';
export { FileReadTracker, hashContent } from './utils/file-read-tracker.js';
export {
  type FrontMatterFile,
  readFrontMatterFile,
  splitFrontMatter,
} from './utils/front-matter.js';
export { fileFilter, globMatcher } from './utils/glob-match.js';
export { type IgnoreOptions, type IgnoreReason, IgnoreRules } from './utils/ignore-rules.js';
export { describeMedia, type ImageSize, imageSize } from './utils/image-size.js';
export { dropNullOptionals } from './utils/json-schema.js';
export { KeyedMutex } from './utils/keyed-mutex.js';
export { plural } from './utils/plural.js';
export {
  endRunningProcessGroups,
  runningProcessGroups,
  trackProcessGroup,
} from './utils/process-group.js';
export { type IgnoreFlags, ignoreArguments, ripgrepPath } from './utils/ripgrep.js';
export {
  type SchemaProblem,
  schemaProblems,
  validateAgainstSchema,
} from './utils/schema-validator.js';
export {
  addTerminationCleanup,
  exitCleanlyOnClosedOutput,
  exitCleanlyOnSignals,
  stoppingBySignal,
  type TerminationOptions,
} from './utils/termination.js';
export { type VisibleTextOptions, visibleText } from './utils/visible-text.js';
export { BlockedAddressError, blockedRange, type Resolver } from './web/address-guard.js';
export { type FetchedPage, guardedFetch } from './web/guarded-fetch.js';
export {
  type SearchProvider,
  type SearchResponse,
  type SearchResult,
  WebSearchError,
} from './web/search-providers.js';
export { WebFetchError } from './web/url-check.js';
export { webLinkProblem } from './web/web-link.js';
export {
  isWithin,
  type PathAccess,
  type PathCheck,
  resolveLikeKernel,
  WorkspaceContext,
  WorkspaceError,
} from './workspace/workspace-context.js';
