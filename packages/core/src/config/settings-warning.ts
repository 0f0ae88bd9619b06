/**
 * A problem found while loading settings. Every step of loading (Qwen Code's names, the
 * schema check, the trust cut) adds to the same list; settings.ts returns it and words it
 * (formatSettingsWarning). Types only, so loading it costs nothing at start.
 */
export interface SettingsWarning {
  /** The file (or `environment` / `command line`) the problem is in. */
  source: string;
  /** The key, dotted (`tools.allowed`), or empty when the whole file is at fault. */
  key: string;
  message: string;
}
