/**
 * Everything a tool or the scheduler needs to know about the session: the workspace, the
 * merged settings, the approval mode, and session-wide state (file locks, approvals).
 */

import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContentProcessor } from '../contract/content-processor.js';
import type { TodoItem } from '../contract/tool-shapes.js';
import type { ActiveExtension } from '../extensions/extensions.js';
import { BackgroundProcesses } from '../shell/background-processes.js';
import type { EndpointSetting } from '../trust/endpoint-keys.js';
import { FileReadTracker } from '../utils/file-read-tracker.js';
import { KeyedMutex } from '../utils/keyed-mutex.js';
import { legacyEncodingPreference } from '../utils/legacy-encoding.js';
import { projectKey } from '../utils/project-key.js';
import { isContextFileName } from '../utils/settings-values.js';
import { WorkspaceContext } from '../workspace/workspace-context.js';
import { ApprovalMemory, activeApprovalMemory } from './approval-memory.js';
import {
  type ApprovalMode,
  type LoadedSettings,
  loadSettings,
  SETTING_DEFAULTS,
  type Settings,
  type SettingsWarning,
  userSettingsDir,
} from './settings.js';

export const DEFAULT_TRUNCATE_THRESHOLD = SETTING_DEFAULTS.tools.truncateOutputThreshold;
/** Memory files read when settings name none (Qwen Code's QWEN.md beside AGENTS.md). */
export const DEFAULT_CONTEXT_FILE_NAMES: readonly string[] = SETTING_DEFAULTS.context.fileName;
/** The memory file save_memory writes when settings name none. */
export const DEFAULT_CONTEXT_FILE_NAME = DEFAULT_CONTEXT_FILE_NAMES[0]!;

export interface ConfigParameters {
  /** Workspace roots; the first is the project root. Defaults to the current folder. */
  roots?: string[];
  settings?: Settings;
  /** Overrides `tools.approvalMode`. */
  approvalMode?: ApprovalMode;
  /** Home folder for ~/.toolhost (tests pass a temporary one). */
  homeDir?: string;
  sessionId?: string;
  /** Endpoint settings an untrusted project alone named: no key of the person's goes there. */
  untrustedEndpoints?: readonly EndpointSetting[];
  /**
   * tools.shell.parseOnlyAutoApproval as the person's own settings set it (Config.load
   * reads the user file and the command line, never the project's); default: `settings`'.
   */
  parseOnlyAutoApproval?: boolean;
  /**
   * Whether the project's own files may loosen what the person allows (a trusted folder);
   * default false: a project's subagent file cannot ask for a looser approval mode.
   */
  projectTrusted?: boolean;
  /** The enabled extensions (their context, command, agent and skill folders are read). */
  extensions?: readonly ActiveExtension[];
}

export interface LoadConfigOptions {
  /** The project root (default: the current folder). */
  root?: string;
  includeDirectories?: string[];
  approvalMode?: ApprovalMode;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Settings given on the command line: the highest layer. */
  overrides?: Settings;
  systemSettingsPath?: string;
  sessionId?: string;
}

type ApprovalModeListener = (mode: ApprovalMode, previous: ApprovalMode) => void;

export class Config {
  readonly workspace: WorkspaceContext;
  readonly settings: Settings;
  readonly homeDir: string;
  /** Endpoint settings an untrusted project alone named (trust/endpoint-keys.ts). */
  readonly untrustedEndpoints: readonly EndpointSetting[];
  /**
   * Without the unasked sandbox profile, commands proven read-only by parsing alone run
   * without asking (weaker); only the person's own settings turn it on.
   */
  readonly parseOnlyAutoApproval: boolean;
  /** Whether the project's own files may loosen what the person allows (ConfigParameters). */
  readonly projectTrusted: boolean;
  /** The enabled extensions; their servers, hooks and exclusions are already in `settings`. */
  readonly extensions: readonly ActiveExtension[];
  private currentSessionId: string | undefined;
  /** Held per real file path while a call changes that file. */
  readonly fileLocks = new KeyedMutex();
  /** What the model last saw of each file, to refuse edits of files changed behind its back. */
  readonly fileReads = new FileReadTracker();
  /** The person's "always" answers when no other approver's memory is in effect. */
  private readonly ownApprovals = new ApprovalMemory();
  /** The "always" answers of whoever is being asked now (approval-memory.ts). */
  get approvals(): ApprovalMemory {
    return activeApprovalMemory() ?? this.ownApprovals;
  }
  /** Tools the person allowed "always" in this session. */
  get sessionAllowedTools(): Set<string> {
    return this.approvals.tools;
  }
  /** Shell command names the person allowed "always" in this session. */
  get sessionAllowedShellCommands(): Set<string> {
    return this.approvals.shellCommands;
  }
  /** Hosts the person allowed web_fetch to reach without asking, this session. */
  get sessionAllowedHosts(): Set<string> {
    return this.approvals.hosts;
  }
  /** MCP servers and tools the person allowed "always" this session (keys from mcp-tool.ts). */
  get sessionAllowedMcp(): Set<string> {
    return this.approvals.mcp;
  }
  /** The session's todo list, as todo_write last set it. */
  todos: TodoItem[] = [];
  /**
   * Set by an agent with a model: web_fetch hands a page and its prompt to it (a side
   * request without tools), so only the extracted answer enters the conversation.
   */
  pageExtractor: ContentProcessor | undefined;
  /**
   * A person answers this session's questions and can visit a page (the interactive
   * terminal, `toolhost call` on a terminal): MCP servers are then told they may send the
   * person to a URL (elicitation, URL mode). Set by such a front end before discovery
   * starts; headless runs and `toolhost mcp` leave it off, so servers never ask them.
   */
  urlElicitation = false;
  /** Commands running in the background, ended by dispose(). */
  readonly backgroundProcesses = new BackgroundProcesses();
  private approvalMode: ApprovalMode;
  private encodingPreference: string[] | undefined;
  private readonly approvalModeListeners = new Set<ApprovalModeListener>();

  constructor(params: ConfigParameters = {}) {
    this.workspace = new WorkspaceContext(params.roots ?? [process.cwd()]);
    this.settings = params.settings ?? {};
    this.homeDir = params.homeDir ?? os.homedir();
    this.untrustedEndpoints = params.untrustedEndpoints ?? [];
    this.parseOnlyAutoApproval =
      params.parseOnlyAutoApproval ??
      this.settings.tools?.shell?.parseOnlyAutoApproval ??
      SETTING_DEFAULTS.tools.shell.parseOnlyAutoApproval;
    this.projectTrusted = params.projectTrusted ?? false;
    this.extensions = params.extensions ?? [];
    this.currentSessionId = params.sessionId;
    this.approvalMode =
      params.approvalMode ??
      this.settings.tools?.approvalMode ??
      SETTING_DEFAULTS.tools.approvalMode;
    // Hashing the root loads Node's crypto module: left for the first path decision.
    this.workspace.addReadOnlyDirectoryLater(() => this.projectTempDir);
    this.backgroundProcesses.keepAfterExit = Boolean(
      this.settings.tools?.shell?.keepBackgroundProcesses,
    );
  }

  /**
   * Legacy encodings to prefer when a file that is not UTF-8 reads equally well in several:
   * `files.legacyEncoding`, then the system locale's.
   */
  get legacyEncodings(): string[] {
    this.encodingPreference ??= legacyEncodingPreference(this.settings.files?.legacyEncoding);
    return this.encodingPreference;
  }

  /** Reads the settings files and builds a Config; warnings are returned, never thrown. */
  static load(options: LoadConfigOptions = {}): { config: Config; settings: LoadedSettings } {
    const root = path.resolve(options.root ?? process.cwd());
    const settings = loadSettings({
      workspaceRoot: root,
      homeDir: options.homeDir,
      env: options.env,
      overrides: options.overrides,
      systemSettingsPath: options.systemSettingsPath,
    });
    const config = new Config({
      roots: [
        root,
        ...(options.includeDirectories ?? []),
        ...settingsDirectories(settings, root, options.homeDir ?? os.homedir()),
      ],
      settings: settings.merged,
      approvalMode: options.approvalMode,
      homeDir: options.homeDir,
      sessionId: options.sessionId,
      untrustedEndpoints: settings.untrustedEndpoints,
      projectTrusted: settings.projectTrusted,
      extensions: settings.extensions.active,
      parseOnlyAutoApproval: ownParseOnlyAutoApproval(settings, options.overrides),
    });
    return { config, settings };
  }

  /**
   * The conversation's id; it changes when the person continues another session (/resume).
   * Made on first use: a command that records no session never needs one.
   */
  get sessionId(): string {
    this.currentSessionId ??= randomUUID();
    return this.currentSessionId;
  }

  set sessionId(id: string) {
    this.currentSessionId = id;
  }

  get targetDir(): string {
    return this.workspace.projectRoot;
  }

  /** ~/.toolhost */
  get userDir(): string {
    return userSettingsDir(this.homeDir);
  }

  /** A folder of this project's own under ~/.toolhost/tmp, for saved outputs and logs. */
  get projectTempDir(): string {
    const root = this.workspace.projectRoot;
    const userDir = this.userDir;
    // Every tool result asks (a digest of the root each time); worked out again only when
    // the root or home changes.
    if (this.tempDirFor?.root !== root || this.tempDirFor.userDir !== userDir)
      this.tempDirFor = { root, userDir, dir: path.join(userDir, 'tmp', projectKey(root)) };
    return this.tempDirFor.dir;
  }
  private tempDirFor: { root: string; userDir: string; dir: string } | undefined;

  getApprovalMode(): ApprovalMode {
    return activeApprovalMemory()?.approvalMode ?? this.approvalMode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    // An answer given inside another approver's memory changes only that approver's mode.
    const scoped = activeApprovalMemory();
    if (scoped) {
      scoped.approvalMode = mode;
      return;
    }
    const previous = this.approvalMode;
    if (previous === mode) return;
    this.approvalMode = mode;
    for (const listener of this.approvalModeListeners) listener(mode, previous);
  }

  onApprovalModeChange(listener: ApprovalModeListener): () => void {
    this.approvalModeListeners.add(listener);
    return () => this.approvalModeListeners.delete(listener);
  }

  /**
   * Ends the session: background commands are ended unless settings keep them
   * (tools.shell.keepBackgroundProcesses). Call it when the agent or command exits.
   */
  async dispose(): Promise<void> {
    if (!this.settings.tools?.shell?.keepBackgroundProcesses)
      await this.backgroundProcesses.endAll();
  }

  getTruncateThreshold(): number {
    return this.settings.tools?.truncateOutputThreshold ?? DEFAULT_TRUNCATE_THRESHOLD;
  }

  /**
   * Context (memory) file names, the one written first. Names only: settings handed in by a
   * library may hold a path, which would read (and save_memory write) any file.
   */
  getContextFileNames(): string[] {
    const setting = this.settings.context?.fileName;
    const names = (typeof setting === 'string' ? [setting] : (setting ?? [])).filter(
      isContextFileName,
    );
    return names.length > 0 ? names : [...DEFAULT_CONTEXT_FILE_NAMES];
  }
}

export type { SettingsWarning };

/**
 * context.includeDirectories as folders: `~/` is the home folder, a relative path is the
 * project root's. A folder that is missing is left out with a warning naming it (added to
 * the loaded warnings), as Qwen Code does.
 */
function settingsDirectories(loaded: LoadedSettings, root: string, homeDir: string): string[] {
  const listed = loaded.merged.context?.includeDirectories ?? [];
  // The lists add up across files: a warning names the file that lists the folder.
  const sourceOf = (entry: string) =>
    [...loaded.files]
      .reverse()
      .find((file) => file.settings.context?.includeDirectories?.includes(entry))?.path ??
    'command line';
  return listed.flatMap((entry) => {
    const folder =
      entry === '~' || entry.startsWith('~/')
        ? path.join(homeDir, entry.slice(1))
        : path.resolve(root, entry);
    let isFolder = false;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch {
      // missing: said below
    }
    if (isFolder) return [folder];
    loaded.warnings.push({
      source: sourceOf(entry),
      key: 'context.includeDirectories',
      message: `"${entry}" is not a folder (${folder}); it was left out of the workspace.`,
    });
    return [];
  });
}

/** tools.shell.parseOnlyAutoApproval from the command line, else the user's own file. */
function ownParseOnlyAutoApproval(loaded: LoadedSettings, overrides?: Settings): boolean {
  // toolhost's own user file above Qwen Code's, as the layers are.
  const user = loaded.files
    .filter((file) => file.scope === 'user')
    .reverse()
    .find((file) => file.settings.tools?.shell?.parseOnlyAutoApproval !== undefined);
  const own =
    overrides?.tools?.shell?.parseOnlyAutoApproval ??
    user?.settings.tools?.shell?.parseOnlyAutoApproval;
  // Only a real true: the command line's layer is checked apart from this.
  return own === true;
}
