/**
 * Reading and writing text and the diff, for the tools that change a file (write_file, edit,
 * save_memory): imported with a call, so that listing the tools (`toolhost tools`, an MCP
 * server's start) builds those tools without them.
 */
export function fileChangeModules() {
  return Promise.all([import('../utils/text-file.js'), import('./file-change.js')]);
}
