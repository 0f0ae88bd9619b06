/**
 * @toolhost/core/tools: The tool contract and the registry: BaseTool, results and their display, errors, the content types (Part, FunctionDeclaration) and the states of a tool call; the nearest names to a misspelt one.
 */
export * from '../contract/content.js';
export * from '../contract/tool-error.js';
export * from '../scheduler/tool-call-types.js';
export * from '../tools/ignore-options.js';
export * from '../tools/tool-registry.js';
export * from '../tools/tools.js';
export * from '../utils/closest-names.js';
