/**
 * A problem found while loading settings, and its one line. Every step of loading (Qwen
 * Code's names, the schema check, the trust cut) adds to the same list; settings.ts returns it.
 */
export interface SettingsWarning {
  /** The file (or `environment` / `command line`) the problem is in. */
  source: string;
  /** The key, dotted (`tools.allowed`), or empty when the whole file is at fault. */
  key: string;
  message: string;
}

export function formatSettingsWarning(warning: SettingsWarning): string {
  const where = warning.key ? `${warning.source}: ${warning.key}` : warning.source;
  return `${where}: ${warning.message}`;
}
