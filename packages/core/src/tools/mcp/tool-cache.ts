/**
 * Which tools each MCP server offered the last time it answered, kept in
 * ~/.toolhost/mcp-tools.json. While servers start, this tells a call naming `echo` which
 * server to wait for (and that no server it does not name needs waiting for), and when a
 * server fails, that `echo` was one of its tools rather than an unknown name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { McpServerSettings } from '../../config/settings.js';
import { writeFileAtomic } from '../../utils/atomic-write.js';

interface CacheFile {
  version: 1;
  servers: Record<string, { alias: string; tools: string[] }>;
}

/** What identifies a server across sessions: how it is started or reached, not its alias. */
export function serverFingerprint(settings: McpServerSettings): string {
  const { command, args, cwd, url, httpUrl } = settings;
  return createHash('sha256')
    .update(JSON.stringify({ command, args, cwd, url, httpUrl }))
    .digest('hex')
    .slice(0, 24);
}

export class McpToolCache {
  private readonly file: string;
  private data: CacheFile = { version: 1, servers: {} };
  private writing: Promise<void> = Promise.resolve();

  constructor(userDir: string) {
    this.file = path.join(userDir, 'mcp-tools.json');
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as CacheFile;
      if (parsed?.version === 1 && typeof parsed.servers === 'object') this.data = parsed;
    } catch {
      // No cache yet, or an unreadable one: start empty; it is only a hint.
    }
  }

  /** The tool names the server offered last time, or undefined if it never answered. */
  toolsOf(settings: McpServerSettings): string[] | undefined {
    return this.data.servers[serverFingerprint(settings)]?.tools;
  }

  remember(alias: string, settings: McpServerSettings, tools: string[]): void {
    const key = serverFingerprint(settings);
    const known = this.data.servers[key]?.tools;
    if (known && known.length === tools.length && known.every((name, i) => name === tools[i]))
      return;
    this.data.servers[key] = { alias, tools: [...tools] };
    const bytes = Buffer.from(`${JSON.stringify(this.data, null, 1)}\n`);
    this.writing = this.writing
      .then(() => writeFileAtomic(this.file, bytes, { createParents: true, mode: 0o600 }))
      .catch(() => undefined);
  }

  /** Resolves when pending writes are on disk (for tests and orderly exits). */
  flush(): Promise<void> {
    return this.writing;
  }
}
