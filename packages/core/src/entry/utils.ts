/**
 * @toolhost/core/utils: Small helpers every front end uses, loaded before anything else: ending on a signal without leaving processes, showing untrusted text escaped, counting words, a question as the person reads it.
 */
export * from '../scheduler/visible-confirmation.js';
export * from '../utils/plural.js';
export * from '../utils/termination.js';
export * from '../utils/visible-text.js';
