/**
 * @toolhost/core/extensions: extensions and plugins: installing, enabling, what each contributes, marketplaces.
 */
export * from '../extensions/contributions.js';
export * from '../extensions/enablement.js';
export * from '../extensions/extension-files.js';
export * from '../extensions/extensions.js';
export * from '../extensions/install.js';
export * from '../extensions/marketplace.js';
