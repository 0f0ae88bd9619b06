/**
 * @toolhost/core/config: Settings and the workspace: loading settings files (with trust), the Config a conversation runs on, saving a setting or a rule, trusted folders, the workspace path policy, and a workspace's tools without a model (what `toolhost call` and `tools` open).
 */
export * from '../config/config.js';
export * from '../config/prompt-folders.js';
export * from '../config/save-setting.js';
export * from '../config/settings.js';
export * from '../config/settings-file-edit.js';
export * from '../config/settings-layer.js';
export * from '../config/trusted-folders.js';
export * from '../contract/settings-types.js';
export * from '../conversation/workspace-tools.js';
export * from '../permissions/saved-rule.js';
export * from '../workspace/workspace-context.js';
