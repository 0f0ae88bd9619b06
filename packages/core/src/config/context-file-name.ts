/**
 * What may name a context (memory) file in settings: read when settings are loaded, so a
 * layer naming a path is warned about there, and again by Config for settings a library
 * hands in. The files themselves (finding, loading, saving a fact) are memory/'s.
 */

/**
 * Whether `name` may name a context file: a plain file name looked up in the project's
 * folders and ~/.toolhost, never a path (no folder separator, not `.` or `..`).
 */
export function isContextFileName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}
