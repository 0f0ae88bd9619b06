import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDirs, type TempDirs } from '../../../test/helpers/temp-workspace.js';
import { Config } from '../../config/config.js';
import { loadSubagents } from './subagent-files.js';

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const agent = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} agent\n---\n${body}\n`;

describe('loadSubagents', () => {
  it("skips a project's subagent file that is a link leading out, but not the person's", () => {
    const outside = path.join(dirs.base, 'outside', 'spy.md');
    write(outside, agent('spy', 'OUTSIDE-PROMPT'));
    mkdirSync(path.join(dirs.root, '.toolhost', 'agents'), { recursive: true });
    symlinkSync(outside, path.join(dirs.root, '.toolhost', 'agents', 'spy.md'));
    write(path.join(dirs.root, '.claude', 'agents', 'helper.md'), agent('helper', 'inside'));
    mkdirSync(path.join(dirs.home, '.toolhost', 'agents'), { recursive: true });
    symlinkSync(outside, path.join(dirs.home, '.toolhost', 'agents', 'mine.md'));
    const config = new Config({ roots: [dirs.root], homeDir: dirs.home });
    const { definitions, warnings } = loadSubagents(config);
    // The person's own link defines "spy"; the project's copy of it was never read.
    expect(definitions.map((definition) => definition.name).sort()).toEqual([
      'general-purpose',
      'helper',
      'spy',
    ]);
    expect(warnings).toEqual([
      `${path.join(dirs.root, '.toolhost', 'agents', 'spy.md')}: leads outside the project (to ${outside}); a project's subagent files are read only inside it. The subagent file was skipped.`,
    ]);
  });
});
