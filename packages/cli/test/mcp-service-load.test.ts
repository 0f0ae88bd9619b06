/**
 * `toolhost mcp --http` with many clients at once, against the installed command on
 * 127.0.0.1: searches of concurrent sessions (ripgrep started from the service's worker
 * thread) each get their own whole answer, and kept-alive connections outlive the idle
 * expiry of common HTTP clients (the server says so in its Keep-Alive header).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpServicePerTest } from './helpers/mcp-service.js';

const service = mcpServicePerTest();

describe('toolhost mcp --http under concurrent sessions', () => {
  it('answers the searches of many sessions at once, each with its own matches', {
    timeout: 120_000,
  }, async () => {
    const sessions = 8;
    for (let i = 0; i < sessions; i++) {
      const folder = path.join(service.dirs.root, `s${i}`);
      mkdirSync(folder);
      for (let file = 0; file < 20; file++)
        writeFileSync(
          path.join(folder, `f${file}.txt`),
          Array.from({ length: 50 }, (_, line) => `marker-${i} ${file}:${line}`).join('\n'),
        );
    }
    const url = await service.start();
    const clients = await Promise.all(
      Array.from({ length: sessions }, () => service.connect(url).then(({ client }) => client)),
    );
    const answers = await Promise.all(
      clients.flatMap((client, i) =>
        [0, 1, 2].map(() =>
          client.callTool({
            name: 'grep_search',
            arguments: { pattern: `marker-${i} `, limit: 5 },
          }),
        ),
      ),
    );
    answers.forEach((answer, index) => {
      const i = Math.floor(index / 3);
      const text = (answer.content as { type: string; text: string }[])[0]!.text;
      expect(answer.isError, text).toBeFalsy();
      expect(text).toContain(`Found 1000 matches for /marker-${i} / in 20 files`);
    });
  });

  it('keeps an idle connection open longer than clients keep theirs (Keep-Alive timeout=65)', async () => {
    const url = new URL(await service.start());
    const agent = new http.Agent({ keepAlive: true });
    try {
      const keepAlive = await new Promise<string | undefined>((resolve, reject) =>
        http
          .get(new URL('/healthz', url), { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(String(res.headers['keep-alive'])));
          })
          .on('error', reject),
      );
      expect(keepAlive).toBe('timeout=65');
    } finally {
      agent.destroy();
    }
  });
});
