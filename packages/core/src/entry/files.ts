/**
 * @toolhost/core/files: File helpers: diffs, listing, loading (encodings, media), front matter, image sizes, schema validation, worker threads, links; checkpoints (the snapshots of a project's files taken before changes: listing, previewing, restoring) and where session files are, for commands that need them without opening a conversation.
 */
export * from '../agent/checkpoints/checkpoint-store.js';
export type { Checkpoint } from '../agent/checkpoints/checkpoint-types.js';
export * from '../agent/checkpoints/restore-checkpoint.js';
export * from '../agent/checkpoints/shadow-git.js';
export * from '../agent/checkpoints/snapshot.js';
export * from '../agent/sessions/session-file.js';
export * from '../utils/file-diff.js';
export * from '../utils/file-listing.js';
export * from '../utils/file-loader.js';
export * from '../utils/front-matter.js';
export * from '../utils/image-size.js';
export * from '../utils/schema-validator.js';
export * from '../utils/spawn-thread.js';
export * from '../web/web-link.js';
