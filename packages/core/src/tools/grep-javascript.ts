/**
 * The grep_search engine of last resort, where neither ripgrep nor git is there: the same
 * listing and ignore rules as the other tools, each file read and matched in JavaScript.
 */
import { readFile } from 'node:fs/promises';
import { isBinary } from '../utils/file-content.js';
import { listFiles } from '../utils/file-listing.js';
import {
  cutLine,
  type GrepMatch,
  GrepPatternError,
  type GrepRequest,
  globFilterFor,
  isDirectory,
} from './grep-request.js';

const READ_CONCURRENCY = 32;

export async function grepWithJavaScript(
  request: GrepRequest,
  onMatch: (match: GrepMatch) => void,
): Promise<void> {
  let regex: RegExp;
  try {
    regex = new RegExp(request.pattern, request.ignoreCase ? 'i' : '');
  } catch (error) {
    throw new GrepPatternError((error as Error).message);
  }
  const folder = await isDirectory(request.target);
  const files = folder
    ? await listFiles(request.target, {
        roots: request.roots,
        ...(request.ignore ?? { respectGitIgnore: true, respectToolhostIgnore: true }),
        engine: 'javascript',
        signal: request.signal,
      })
    : [request.target];
  const filter = globFilterFor(request);
  const wanted = filter ? files.filter(filter) : files;
  for (let i = 0; i < wanted.length && !request.signal.aborted; i += READ_CONCURRENCY) {
    await Promise.all(
      wanted.slice(i, i + READ_CONCURRENCY).map(async (file) => {
        let bytes: Buffer;
        try {
          bytes = await readFile(file);
        } catch {
          return;
        }
        if (isBinary(bytes.subarray(0, 8192)) || bytes.includes(0)) return;
        const lines = bytes.toString('utf8').split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        lines.forEach((raw, index) => {
          const text = raw.replace(/\r$/, '');
          if (regex.test(text)) onMatch({ file, line: index + 1, text: cutLine(text) });
        });
      }),
    );
  }
}
