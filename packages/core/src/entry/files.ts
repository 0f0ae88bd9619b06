/**
 * @toolhost/core/files: File helpers: diffs, listing, loading (encodings, media), front matter, image sizes, schema validation, worker threads, links.
 */
export * from '../utils/file-diff.js';
export * from '../utils/file-listing.js';
export * from '../utils/file-loader.js';
export * from '../utils/front-matter.js';
export * from '../utils/image-size.js';
export * from '../utils/schema-validator.js';
export * from '../utils/spawn-thread.js';
export * from '../web/web-link.js';
