/** /init: has the agent study the project and write its AGENTS.md (the memory file). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SlashCommand } from '../command-types.js';

export function initPrompt(fileName: string): string {
  return `Study this project and write ${fileName} in its root folder: the file a coding agent reads first, at the start of every session in this project.
First explore: list the top-level folders, read the README and the build and package files (package.json, pyproject.toml, Cargo.toml, go.mod, Makefile, CI workflows...), and open a few representative source and test files.
Then write ${fileName} with write_file. Keep it short and specific to this project, in Markdown, with sections such as:
- what the project is, in two or three sentences;
- how to install dependencies, build, run, lint and test (the exact commands, including how to run a single test);
- the layout: the main folders and what lives in each;
- the conventions you observed: language versions, style and formatting rules, naming, how errors are handled, how tests are written;
- anything a newcomer would trip over.
Write only what you found in the files; do not invent commands.`;
}

export const initCommand: SlashCommand = {
  name: 'init',
  description: 'Write an AGENTS.md for this project, with the model studying it first',
  source: 'built-in',
  takesArguments: false,
  run(context) {
    const fileName = context.config.getContextFileNames()[0] ?? 'AGENTS.md';
    const file = path.join(context.config.targetDir, fileName);
    if (existsSync(file) && readFileSync(file, 'utf8').trim()) {
      context.print(
        `${fileName} already exists in ${context.config.targetDir}; it was left as it is. Ask the model to improve it, or delete it and run /init again.`,
      );
      return;
    }
    context.print(`Asking the model to study the project and write ${fileName}…`);
    context.submitPrompt(initPrompt(fileName));
  },
};
