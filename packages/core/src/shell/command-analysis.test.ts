import { describe, expect, it } from 'vitest';
import { analyzeCommand } from './command-analysis.js';
import { shellRules } from './command-rules.js';
import { decideShell } from './shell-permissions.js';

const names = async (command: string) =>
  (await analyzeCommand(command)).commands.map((c) => c.name);

describe('analyzeCommand: finds every command', () => {
  const cases: [string, string[]][] = [
    ['ls -la', ['ls']],
    ['echo a && rm x', ['echo', 'rm']],
    ['echo a; rm x', ['echo', 'rm']],
    ['a | rm x', ['a', 'rm']],
    ['echo a\nrm x', ['echo', 'rm']],
    ['echo $(rm x)', ['echo', 'rm']],
    ['echo `rm x`', ['echo', 'rm']],
    ['cat <(rm x)', ['cat', 'rm']],
    ['tee >(rm x)', ['tee', 'rm']],
    ['(cd src && rm x)', ['cd', 'rm']],
    ['{ echo a; rm x; }', ['echo', 'rm']],
    ['/bin/rm x', ['rm']],
    ['./node_modules/.bin/rm x', ['rm']],
    ['\\rm x', ['rm']],
    ["r''m x", ['rm']],
    ['"rm" x', ['rm']],
    ['env rm x', ['rm']],
    ['env -i PATH=/bin FOO=1 rm x', ['rm']],
    ['command rm x', ['rm']],
    ['builtin rm x', ['rm']],
    ['exec rm x', ['rm']],
    ['nohup rm x', ['rm']],
    ['nice -n 5 rm x', ['rm']],
    ['timeout 5 rm x', ['rm']],
    ['timeout -s KILL 5 rm x', ['rm']],
    ['time rm x', ['rm']],
    ['find . | xargs rm', ['find', 'rm']],
    ['xargs -I{} rm {}', ['rm']],
    ['sudo rm x', ['sudo', 'rm']],
    ['sudo -u root rm x', ['sudo', 'rm']],
    ['bash -c "rm x"', ['rm']],
    ["sh -c 'echo a; rm x'", ['echo', 'rm']],
    ['bash -lc "rm x"', ['rm']],
    ['eval "rm x"', ['rm']],
    ["eval 'echo a' '&& rm x'", ['echo', 'rm']],
    ['FOO=1 rm x', ['rm']],
    ['FOO=1 BAR=2 env rm x', ['rm']],
    ['if true; then rm x; fi', ['true', 'rm']],
    ['for f in *; do rm "$f"; done', ['rm']],
    ['while read l; do rm x; done < list', ['read', 'rm']],
    ['f() { rm x; }; f', ['rm', 'f']],
    ['cat <<EOF\n$(rm x)\nEOF', ['cat', 'rm']],
    ['bash <<EOF\nrm x\nEOF', ['bash', 'rm']],
    ['export A=1 && rm x', ['export', 'rm']],
  ];
  for (const [command, expected] of cases) {
    it(JSON.stringify(command), async () => {
      expect(await names(command)).toEqual(expected);
    });
  }

  it('records substitutions, writes and what it cannot understand', async () => {
    const analysis = await analyzeCommand(
      'echo $(date) > out.txt 2>&1; cat x 2>/dev/null >> log.txt',
    );
    expect(analysis.substitutions).toEqual(['$(date)']);
    expect(analysis.writes).toEqual(['out.txt', 'log.txt']);
    expect((await analyzeCommand('echo (')).unclear[0]).toMatch(/syntax error|cannot understand/);
    expect((await analyzeCommand('$CMD x')).unclear[0]).toMatch(/only known when the command runs/);
    expect((await analyzeCommand('bash -c "$SCRIPT"')).unclear[0]).toMatch(
      /only known when the command runs/,
    );
    expect((await analyzeCommand('curl x | sh')).unclear[0]).toMatch(
      /sh runs a script read from its input/,
    );
  });
});

describe('bypass attempts are refused or asked, never allowed', () => {
  const BYPASSES = [
    'echo a && rm x',
    'echo a; rm x',
    'a | rm x',
    'echo $(rm x)',
    'echo `rm x`',
    'cat <(rm x)',
    '/bin/rm x',
    '\\rm x',
    "r''m x",
    'env rm x',
    'echo x | xargs rm',
    'bash -c "rm x"',
    'eval "rm x"',
    'FOO=1 rm x',
    'echo a\nrm x',
    'cat <<EOF\n$(rm x)\nEOF',
    'bash <<EOF\nrm x\nEOF',
    'sh -c "$(echo rm) x"',
  ];
  // Everything else in these lines is allowed, so only rm can stop them.
  const allowRules = shellRules(
    ['echo', 'a', 'cat', 'env', 'xargs', 'bash', 'sh', 'eval'].map(
      (n) => `run_shell_command(${n})`,
    ),
  );

  for (const command of BYPASSES) {
    it(`${JSON.stringify(command)} is refused by a deny rule for rm`, async () => {
      const decision = decideShell(await analyzeCommand(command), {
        allowRules,
        denyRules: shellRules(['run_shell_command(rm)']),
        sessionAllowed: new Set(),
      });
      if (command.includes('$(echo rm)')) {
        // The program name is built at run time: it cannot be matched, so it asks.
        expect(decision.kind).toBe('ask');
      } else {
        expect(decision.kind).toBe('deny');
      }
    });

    it(`${JSON.stringify(command)} asks when only the other commands are allowed`, async () => {
      const decision = decideShell(await analyzeCommand(command), {
        allowRules,
        denyRules: [],
        sessionAllowed: new Set(),
      });
      expect(decision.kind).toBe('ask');
    });
  }

  it('names the command and the rule when refusing', async () => {
    const decision = decideShell(await analyzeCommand('ls && /bin/rm -rf build'), {
      allowRules: [],
      denyRules: shellRules(['run_shell_command(rm -rf)']),
      sessionAllowed: new Set(),
    });
    expect(decision).toEqual({
      kind: 'deny',
      message: expect.stringContaining(
        '"/bin/rm -rf build" is blocked by the rule run_shell_command(rm -rf) in tools.exclude',
      ),
    });
  });
});

describe('allow rules', () => {
  const policy = (entries: string[], sessionAllowed: string[] = []) => ({
    allowRules: shellRules(entries),
    denyRules: [],
    sessionAllowed: new Set(sessionAllowed),
  });

  it('match whole words as a prefix', async () => {
    const git = policy(['run_shell_command(git)']);
    expect(decideShell(await analyzeCommand('git commit -m x'), git).kind).toBe('allow');
    expect(decideShell(await analyzeCommand('gitk'), git).kind).toBe('ask');
    const gitStatus = policy(['run_shell_command(git status)']);
    expect(decideShell(await analyzeCommand('git status --short'), gitStatus).kind).toBe('allow');
    expect(decideShell(await analyzeCommand('git push'), gitStatus).kind).toBe('ask');
  });

  it('allow a line only when every command is allowed', async () => {
    const decision = decideShell(
      await analyzeCommand('npm test && npm publish'),
      policy(['run_shell_command(npm test)']),
    );
    expect(decision).toMatchObject({ kind: 'ask', rootCommands: ['npm'] });
  });

  it('never approve a substitution, even of allowed commands', async () => {
    const decision = decideShell(
      await analyzeCommand('npm test $(npm bin)'),
      policy(['run_shell_command(npm)']),
    );
    expect(decision).toMatchObject({
      kind: 'ask',
      reasons: [expect.stringContaining('$(npm bin)')],
    });
  });

  it('remember session answers by command name', async () => {
    expect(decideShell(await analyzeCommand('make build'), policy([], ['make'])).kind).toBe(
      'allow',
    );
  });

  it('let read-only commands run, unless something writes', async () => {
    expect(decideShell(await analyzeCommand('ls -la | grep src | wc -l'), policy([]))).toEqual({
      kind: 'allow',
      reason: 'read_only',
    });
    expect(decideShell(await analyzeCommand('ls > files.txt'), policy([]))).toMatchObject({
      kind: 'ask',
      reasons: ['writes to files.txt'],
    });
    expect(decideShell(await analyzeCommand('git status 2>&1 | head'), policy([])).kind).toBe(
      'allow',
    );
  });

  it('read paths of rules by program name', async () => {
    expect(
      decideShell(await analyzeCommand('/usr/bin/make'), policy(['run_shell_command(make)'])).kind,
    ).toBe('allow');
  });
});
