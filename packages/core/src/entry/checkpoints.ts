/**
 * @toolhost/core/checkpoints: Checkpoints: the store of snapshots taken before changes, listing and restoring them (files and conversation).
 */
export * from '../agent/checkpoints/checkpoint-store.js';
export * from '../agent/checkpoints/restore-checkpoint.js';
export * from '../agent/checkpoints/shadow-git.js';
export * from '../agent/checkpoints/snapshot.js';
