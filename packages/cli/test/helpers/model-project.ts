/**
 * The setup most tests of the installed command share: per test, a fresh temporary
 * `project` folder with a home beside it (`prepare` may fill them), and a slot for the
 * scripted model server the test starts. After each test the server in the slot is closed
 * and the folders removed.
 */
import { afterEach, beforeEach } from 'vitest';
import type { ModelServer } from '../../../core/test/helpers/model-server.js';
import { makeTempDirs, type TempDirs } from '../../../core/test/helpers/temp-workspace.js';

export interface ModelProject {
  /** This test's folders (`root` is the project, `home` stands in for ~). */
  readonly dirs: TempDirs;
  /** The model server this test started (assign it here so it is closed after the test). */
  server: ModelServer | undefined;
}

/** Registers the per-test setup and teardown; call once at the top of a test file. */
export function modelProject(prepare?: (dirs: TempDirs) => void): ModelProject {
  let dirs: TempDirs | undefined;
  const project: ModelProject = {
    get dirs() {
      if (!dirs) throw new Error('modelProject: the folders exist only inside a test');
      return dirs;
    },
    server: undefined,
  };
  beforeEach(() => {
    dirs = makeTempDirs({ rootName: 'project' });
    prepare?.(dirs);
  });
  afterEach(async () => {
    await project.server?.close();
    project.server = undefined;
    dirs?.cleanup();
    dirs = undefined;
  });
  return project;
}
