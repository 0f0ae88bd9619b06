/**
 * Default mode runs without asking only what is proven read-only. Each attempt below
 * tries to create the file `pwned` (or to change git's state) from a line that looks
 * harmless. Every attempt is first run in yolo mode to prove it really does that in real
 * bash; then in default mode, with the person declining, nothing may change and the
 * question must say why. Read-only lines, in turn, must still run without asking.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyGitEnvironment } from '../src/shell/git-read-only.js';
import { shellEnvironment } from '../src/shell/shell-environment.js';
import { caseFolder, runThroughScheduler } from './helpers/shell-policy.js';
import { makeWorkspace, type TempWorkspace } from './helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = makeWorkspace();
});
afterAll(() => ws.cleanup());

const PAYLOAD = `#!/bin/sh\ntouch "$(dirname "$0")/pwned"\n`;

function git(dir: string, ...args: string[]) {
  return execFileSync('git', args, {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: ws.home },
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 20_000,
  });
}

/** A repository with one commit and a changed file, and an executable payload. */
function repo(dir: string, config = '') {
  writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  writeFileSync(path.join(dir, 'x.sh'), PAYLOAD);
  chmodSync(path.join(dir, 'x.sh'), 0o755);
  git(dir, 'init', '-q');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'a.txt');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
  writeFileSync(path.join(dir, 'a.txt'), 'two\n');
  if (config)
    writeFileSync(
      path.join(dir, '.git/config'),
      readFileSync(path.join(dir, '.git/config'), 'utf8') + config,
    );
}

type Setup = (dir: string) => void;
const plain: Setup = (dir) => {
  writeFileSync(path.join(dir, 'names.txt'), 'b\na\n');
  writeFileSync(path.join(dir, 'x.sh'), PAYLOAD);
  chmodSync(path.join(dir, 'x.sh'), 0o755);
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'bin/ls'), PAYLOAD.replace('$(dirname "$0")', '$(dirname "$0")/..'));
  chmodSync(path.join(dir, 'bin/ls'), 0o755);
};

/** [attempt, the file it creates (default pwned), setup]. */
const ATTEMPTS: [string, string?, Setup?][] = [
  // Options and redirections that write.
  ['sort -o pwned names.txt'],
  ['sort -uo pwned names.txt'],
  ['sort --o=pwned names.txt'],
  ['sort --output pwned names.txt'],
  ['sort names.txt -o pwned'],
  ['uniq names.txt pwned'],
  ['cat names.txt | uniq - pwned'],
  ['echo x > pwned'],
  ['echo x >> pwned'],
  ['echo x >| pwned'],
  ['echo x &> pwned'],
  ['echo x 2> pwned'],
  ['ls >& pwned'],
  ['echo x > 7', '7'],
  ['echo x &>> -', '-'],
  ['cat names.txt 3> pwned'],
  ['tee pwned < names.txt'],
  ['cp names.txt pwned'],
  ['find . -fprint pwned'],
  ['find . -name names.txt -exec touch pwned \\;'],
  ['find . -name names.txt -execdir ./x.sh \\;'],
  // Constructs in which bash evaluates a string as code.
  ["test -v 'a[$(touch pwned)]'"],
  ["[ -v 'a[$(touch pwned)]' ]"],
  ["x='a[$(touch pwned)]'; (( x ))"],
  ["x='a[$(touch pwned)]'; echo $((x))"],
  ["x='a[$(touch pwned)]'; [[ $x -eq 1 ]]"],
  ["x='a[$(touch pwned)]'; a=(1); echo ${a[x]}"],
  ["x='a[$(touch pwned)]'; for ((i = x; i < 0; i++)); do :; done"],
  // A loop's counter made an expression by something else in the line, then counted with.
  ["for ((i = 0; i < 1; i++)); do read i; done <<< 'a[$(touch pwned)]'"],
  ["for ((i = 0; i < 1; i++)); do printf -v i %s 'a[$(touch pwned)]'; done"],
  ["for ((i = 0; i < 1; i++)); do for i in 'a[$(touch pwned)]'; do :; done; done"],
  ["for ((i = 0; i < 1; i++)); do eval 'read i'; done <<< 'a[$(touch pwned)]'"],
  // REPLY is set by a bare `read`, with no name in the line.
  ["for ((REPLY = 0; REPLY < 1; REPLY++)); do read; done <<< 'a[$(touch pwned)]'"],
  ["x='a[$(touch pwned)]'; echo $[x]"],
  ["printf -v 'a[$(touch pwned)]' x"],
  ["read 'a[$(touch pwned)]' <<< x"],
  ["declare 'a[$(touch pwned)]=1'"],
  ['x=\'$(touch pwned)\'; echo "${x@P}"'],
  ['ls $(touch pwned)'],
  ['echo `touch pwned`'],
  ['cat <(touch pwned)'],
  ['echo $(touch pwned)'],
  // Runners, shells and names built at run time.
  ["env -S 'touch pwned'"],
  ['env touch pwned'],
  ["bash -c 'touch pwned'"],
  ["echo 'touch pwned' | bash"],
  ["bash <<< 'touch pwned'"],
  ["eval 'touch pwned'"],
  ["$'\\x74ouch' pwned"],
  ['t=touch; $t pwned'],
  ['{touch,pwned}'],
  ["trap 'touch pwned' EXIT"],
  ['coproc touch pwned; wait'],
  ['ls() { touch pwned; }; ls'],
  ['echo() { ./x.sh; }; echo hi'],
  ['timeout 5 touch pwned'],
  ['nice ls && ./x.sh'],
  ['stdbuf -oL ./x.sh'],
  ['command ./x.sh'],
  ['echo names.txt | xargs ./x.sh'],
  ['ls | xargs -I{} touch pwned'],
  // Leading assignments that make read-only programs run code.
  ['PATH=./bin:$PATH ls'],
  ['BASH_ENV=./x.sh bash -c ls'],
  ['GIT_EXTERNAL_DIFF=./x.sh git diff', 'pwned', (d) => repo(d)],
  ['env GIT_EXTERNAL_DIFF=./x.sh git diff', 'pwned', (d) => repo(d)],
  ['GIT_TRACE=$PWD/pwned git status', 'pwned', (d) => repo(d)],
  ['git -c core.pager=./x.sh -c core.fsmonitor=./x.sh status', 'pwned', (d) => repo(d)],
  ['git --exec-path=. status && ./x.sh', 'pwned', (d) => repo(d)],
  // A repository whose own config runs programs.
  ['git status', 'pwned', (d) => repo(d, '[core]\n\tfsmonitor = ./x.sh\n')],
  ['git diff', 'pwned', (d) => repo(d, '[diff]\n\texternal = ./x.sh\n')],
  [
    'git diff',
    'pwned',
    (d) => {
      repo(d, '[diff "evil"]\n\ttextconv = ./x.sh\n');
      writeFileSync(path.join(d, '.gitattributes'), 'a.txt diff=evil\n');
    },
  ],
  // Git reads a key or another header on a section header's line.
  [
    'git log -p',
    'pwned',
    (d) => {
      repo(d, '[diff "evil"] textconv = ./x.sh\n');
      writeFileSync(path.join(d, '.gitattributes'), 'a.txt diff=evil\n');
      git(d, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'two');
    },
  ],
  [
    'git diff',
    'pwned',
    (d) => {
      writeFileSync(path.join(d, 'evil.cfg'), '[diff "evil"]\n\ttextconv = ./x.sh\n');
      repo(d, '[core] [include] path = ../evil.cfg\n');
      writeFileSync(path.join(d, '.gitattributes'), 'a.txt diff=evil\n');
    },
  ],
  [
    'git status',
    'pwned',
    (d) => {
      repo(d, '[filter "evil"]\n\tclean = ./x.sh\n');
      writeFileSync(path.join(d, '.gitattributes'), 'a.txt filter=evil\n');
    },
  ],
  // A submodule's own config: git status looks into it without the environment's safe config.
  [
    'git status',
    'pwned',
    (d) => {
      repo(d);
      const source = path.join(d, 'src');
      mkdirSync(source);
      writeFileSync(path.join(source, 'f.txt'), 'one\n');
      git(source, 'init', '-q');
      git(source, 'add', 'f.txt');
      git(source, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
      git(d, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', './src', 'sub');
      const config = path.join(d, '.git/modules/sub/config');
      writeFileSync(config, `${readFileSync(config, 'utf8')}[filter "evil"]\n\tclean = ../x.sh\n`);
      writeFileSync(path.join(d, 'sub/.gitattributes'), 'f.txt filter=evil\n');
      writeFileSync(path.join(d, 'sub/f.txt'), 'two\n');
    },
  ],
];

/** Attempts whose effect is a change to the repository, not a file. */
const GIT_CHANGES: [string, (dir: string) => boolean][] = [
  [
    'git remote add x /y',
    (d) => readFileSync(path.join(d, '.git/config'), 'utf8').includes('[remote "x"]'),
  ],
  ['git branch pwned', (d) => git(d, 'branch', '--list', 'pwned').trim() !== ''],
  ['git tag pwned', (d) => git(d, 'tag', '--list', 'pwned').trim() !== ''],
  [
    'git config user.name pwned',
    (d) => readFileSync(path.join(d, '.git/config'), 'utf8').includes('pwned'),
  ],
  ['git checkout -- a.txt', (d) => readFileSync(path.join(d, 'a.txt'), 'utf8') === 'one\n'],
  ['git stash', (d) => readFileSync(path.join(d, 'a.txt'), 'utf8') === 'one\n'],
];

async function expectAskedAndUnchanged(attempt: string, dir: string, changed: () => boolean) {
  const run = await runThroughScheduler(ws, attempt, { mode: 'default', directory: dir });
  expect(changed(), 'nothing changed in default mode').toBe(false);
  expect(run.status).toBe('cancelled');
  expect(run.asked).toHaveLength(1);
  const details = run.asked[0]!;
  expect(details.type).toBe('exec');
  const reasons = details.type === 'exec' ? (details.reasons ?? []) : [];
  expect(reasons.length, 'the question says why').toBeGreaterThan(0);
  expect(details.title).toContain(reasons[0]);
}

describe.concurrent('default mode asks before anything that is not proven read-only', () => {
  let index = 0;
  for (const [attempt, canary = 'pwned', setup = plain] of ATTEMPTS) {
    it(`#${++index} ${JSON.stringify(attempt)}`, async () => {
      const open = caseFolder(ws, setup);
      await runThroughScheduler(ws, attempt, { mode: 'yolo', directory: open });
      expect(existsSync(path.join(open, canary)), 'in yolo mode the attempt works').toBe(true);
      const dir = caseFolder(ws, setup);
      await expectAskedAndUnchanged(attempt, dir, () => existsSync(path.join(dir, canary)));
    });
  }
  for (const [attempt, changed] of GIT_CHANGES) {
    it(`#${++index} ${JSON.stringify(attempt)}`, async () => {
      const open = caseFolder(ws, (d) => repo(d));
      await runThroughScheduler(ws, attempt, { mode: 'yolo', directory: open });
      expect(changed(open), 'in yolo mode the attempt works').toBe(true);
      const dir = caseFolder(ws, (d) => repo(d));
      await expectAskedAndUnchanged(attempt, dir, () => changed(dir));
    });
  }
});

describe("default mode does not hand out toolhost's own environment", () => {
  const SECRET = 'toolhost-test-secret-value';
  beforeAll(() => {
    process.env.TOOLHOST_T_PROVIDER_KEY = SECRET;
  });
  afterAll(() => {
    delete process.env.TOOLHOST_T_PROVIDER_KEY;
  });
  for (const attempt of [
    'cat /proc/$PPID/environ',
    'cat /proc/1/environ',
    'tr "\\0" "\\n" < /proc/$PPID/environ',
    'strings /proc/$PPID/environ',
    'cat /proc/self/../$PPID/environ',
    'grep -a KEY /proc/$PPID/environ',
    'head -c 100000 /proc/$PPID/environ',
  ]) {
    it(JSON.stringify(attempt), async () => {
      const dir = caseFolder(ws);
      const run = await runThroughScheduler(ws, attempt, { mode: 'default', directory: dir });
      expect(run.message).not.toContain(SECRET);
      expect(run.asked).toHaveLength(1);
    });
  }
});

describe('read-only lines still run without asking', () => {
  for (const [attempt, marker] of [
    ['ls -la', 'names.txt'],
    ['cat names.txt | sort | head -1', 'a'],
    ['grep -n a names.txt', '2:a'],
    ['wc -l names.txt 2>/dev/null', '2 names.txt'],
    ['find . -name "*.txt"', './names.txt'],
    ['echo marker-$((1 + 2))', 'marker-3'],
    ['echo marker-$[1 + 2]', 'marker-3'],
    ['for ((i = 0; i < 3; i++)); do echo n$i-$((i * 2)); done', 'n2-4'],
    ['git status --short', 'M a.txt'],
    ['git diff --stat', 'a.txt'],
    ['git log --oneline -1', 'one'],
    ['bash -c "cat names.txt"', 'b'],
  ] as const) {
    it(JSON.stringify(attempt), async () => {
      const dir = caseFolder(ws, (d) => {
        repo(d);
        plain(d);
      });
      const run = await runThroughScheduler(ws, attempt, { mode: 'default', directory: dir });
      expect(run.asked).toEqual([]);
      expect(run.status).toBe('success');
      expect(run.message).toContain(marker);
    });
  }
});

describe('a C-style loop sets its counter before counting, whatever the environment holds', () => {
  beforeAll(() => {
    process.env.i = 'a[$(touch pwned)]';
  });
  afterAll(() => {
    delete process.env.i;
  });

  it('runs the loop unasked, and the expression in $i never runs', async () => {
    const dir = caseFolder(ws);
    const attempt = 'for ((i = 0; i < 2; i++)); do echo n$i; done';
    const run = await runThroughScheduler(ws, attempt, { mode: 'default', directory: dir });
    expect(run.asked).toEqual([]);
    expect(run.message).toContain('n1');
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
  });

  it('asks before arithmetic that reads the variable as it came', async () => {
    const open = caseFolder(ws);
    await runThroughScheduler(ws, 'echo $((i))', { mode: 'yolo', directory: open });
    expect(existsSync(path.join(open, 'pwned')), 'in yolo mode the attempt works').toBe(true);
    const dir = caseFolder(ws);
    await expectAskedAndUnchanged('echo $((i))', dir, () => existsSync(path.join(dir, 'pwned')));
  });
});

describe('read-only git runs with config that switches off what runs programs', () => {
  it('does not run fsmonitor or a pager from repository config', () => {
    const dir = caseFolder(ws, (d) =>
      repo(d, '[core]\n\tfsmonitor = ./x.sh\n\tpager = ./x.sh\n\thooksPath = .\n'),
    );
    const env = shellEnvironment(process.env);
    const safe = { ...env, ...readOnlyGitEnvironment(env) };
    // stderr piped, not inherited: git warns about the payload's empty fsmonitor answer
    // ("Empty last update token."), which is expected here and belongs to no test output.
    const quiet = { cwd: dir, stdio: 'pipe', timeout: 20_000 } as const;
    for (const args of [['status'], ['diff'], ['log', '-p', '-1'], ['show'], ['ls-files', '-m']]) {
      execFileSync('git', args, { ...quiet, env: safe });
      expect(existsSync(path.join(dir, 'pwned')), args.join(' ')).toBe(false);
    }
    // The same config runs the payload without these settings.
    execFileSync('git', ['status'], { ...quiet, env });
    expect(existsSync(path.join(dir, 'pwned'))).toBe(true);
  });
});
