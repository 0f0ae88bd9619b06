/**
 * The setup the extensions tests share: modelProject's folders per test, with the repository's
 * node_modules linked above the home (the fixtures' MCP servers import the MCP SDK, found as
 * node looks upward) and a `canaries` folder the fixtures' hooks and servers write into
 * (EXTENSION_CANARY_DIR); runAgent runs the agent once on a scripted model of its own, closed
 * again before it returns. modelProject removes the folders after each test.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../../../core/test/helpers/model-server.js';
import { runCliAsync } from '../run-cli.js';
import { type ModelProject, modelProject } from './model-project.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const EXTENSION_FIXTURES = path.resolve(HERE, '..', 'fixtures', 'extensions');

type ToolCalls = { name: string; args: Record<string, unknown> }[];

export interface ExtensionProject {
  project: ModelProject;
  /** The folder the fixtures' hooks and servers leave their canary files in. */
  readonly canaries: string;
  /** Runs `toolhost -p prompt` once: the model calls `calls` first when given, then answers. */
  runAgent(calls?: ToolCalls): ReturnType<typeof agentRun>;
}

async function agentRun(project: ModelProject, prompt: string, canaries: string, calls: ToolCalls) {
  project.server = await startModelServer((_request, index) =>
    index === 0 && calls.length > 0 ? { toolCalls: calls } : { text: 'Done.' },
  );
  const result = await runCliAsync(['-p', prompt], {
    cwd: project.dirs.root,
    home: project.dirs.home,
    env: {
      OPENAI_BASE_URL: project.server.baseUrl,
      OPENAI_API_KEY: 'k',
      OPENAI_MODEL: 'm',
      EXTENSION_CANARY_DIR: canaries,
    },
  });
  const requests = project.server.requests;
  await project.server.close();
  project.server = undefined;
  return { result, requests };
}

/** Registers the per-test setup and teardown; call once at the top of a test file. */
export function extensionProject(prompt: string): ExtensionProject {
  const project = modelProject((dirs) => {
    symlinkSync(
      path.resolve(HERE, '../../../../node_modules'),
      path.join(dirs.base, 'node_modules'),
    );
    mkdirSync(path.join(dirs.base, 'canaries'));
  });
  const fixture: ExtensionProject = {
    project,
    get canaries() {
      return path.join(project.dirs.base, 'canaries');
    },
    runAgent: (calls = []) => agentRun(project, prompt, fixture.canaries, calls),
  };
  return fixture;
}
