/**
 * The setup the `toolhost --acp` test files share: per test, a project folder and a home,
 * the scripted model server (started by the test's first modelEnv), and editors started on
 * the installed command, every one of them and the server stopped when the test ends.
 */
import { afterEach, beforeEach } from 'vitest';
import {
  type ModelServer,
  type Script,
  startModelServer,
} from '../../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../../core/test/helpers/temp-workspace.js';
import {
  type Editor,
  type EditorOptions,
  type PermissionAnswer,
  startEditor,
} from './acp-editor.js';

export interface AcpProject {
  /** This test's folders (`root` is the project the editor opens). */
  readonly dirs: TempDirs;
  readonly root: string;
  /** The model server, once modelEnv started it. */
  readonly server: ModelServer | undefined;
  /** Starts the model server on its first call; the environment that points toolhost at it. */
  modelEnv(script: Script): Promise<NodeJS.ProcessEnv>;
  /**
   * Starts `toolhost --acp` and connects to it as an editor (answering permissions with
   * `answer`; with `buffers`, offering its open files' text through fs/read_text_file).
   */
  startEditor(
    env: NodeJS.ProcessEnv,
    answer?: PermissionAnswer,
    buffers?: Map<string, string>,
    flags?: string[],
  ): Editor;
  /** The same, with any of the editor's options (writes, elicitation, ...). */
  startEditorWith(env: NodeJS.ProcessEnv, options: Partial<EditorOptions>): Editor;
}

/** Registers the per-test setup and teardown; call once at the top of a test file. */
export function acpProject(): AcpProject {
  let dirs: TempDirs | undefined;
  let server: ModelServer | undefined;
  const editors: Editor[] = [];
  const current = () => {
    if (!dirs) throw new Error('acpProject is used outside a test');
    return dirs;
  };
  const open = (env: NodeJS.ProcessEnv, options: Partial<EditorOptions>): Editor => {
    const { root, home } = current();
    const editor = startEditor({ cwd: root, home, env, ...options });
    editors.push(editor);
    return editor;
  };
  beforeEach(() => {
    dirs = makeTempDirs({ rootName: 'project' });
  });
  afterEach(async () => {
    for (const editor of editors.splice(0)) {
      if (editor.child.exitCode === null) editor.child.kill('SIGKILL');
    }
    await server?.close();
    server = undefined;
    dirs?.cleanup();
    dirs = undefined;
  });
  return {
    get dirs() {
      return current();
    },
    get root() {
      return current().root;
    },
    get server() {
      return server;
    },
    async modelEnv(script) {
      server ??= await startModelServer(script);
      return {
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'scripted-model',
      };
    },
    startEditor: (env, answer, buffers, flags = []) => open(env, { answer, buffers, flags }),
    startEditorWith: open,
  };
}
