import { describe, expect, it } from 'vitest';
import { analyzeCommand } from './command-analysis.js';
import { ruleMatches, shellRules } from './command-rules.js';
import { decideShell, type ShellPolicy } from './shell-permissions.js';

const names = async (command: string) =>
  (await analyzeCommand(command)).commands.map((c) => c.name);

const policy = (over: Partial<ShellPolicy> = {}): ShellPolicy => ({
  allowRules: [],
  denyRules: [],
  sessionAllowed: new Set(),
  readOnly: { cwd: '/ws', canRead: (p) => p === '/ws' || p.startsWith('/ws/'), homeDir: '/home/u' },
  ...over,
});
const decide = async (command: string, over: Partial<ShellPolicy> = {}) =>
  decideShell(await analyzeCommand(command), policy(over));

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
    ['env -i PATH2=/bin FOO=1 rm x', ['rm']],
    ['env -u HOME -C /tmp rm x', ['rm']],
    ['env -- rm x', ['rm']],
    ['command rm x', ['rm']],
    ['command -v rm', ['command']],
    ['builtin rm x', ['rm']],
    ['exec rm x', ['rm']],
    ['nohup rm x', ['rm']],
    ['nice -n 5 rm x', ['rm']],
    ['nice -5 rm x', ['rm']],
    ['timeout 5 rm x', ['rm']],
    ['timeout -s KILL 5 rm x', ['rm']],
    ['timeout --signal=KILL -k 1 5 rm x', ['rm']],
    ['time rm x', ['rm']],
    ['time -p rm x', ['rm']],
    ['stdbuf -oL -e 0 rm x', ['rm']],
    ['ionice -c 3 rm x', ['rm']],
    ['taskset 0x1 rm x', ['rm']],
    ['taskset -c 0 rm x', ['rm']],
    ['setsid -f rm x', ['rm']],
    ['find . | xargs rm', ['find', 'rm']],
    ['xargs -I{} rm {}', ['rm']],
    ['xargs -0 -n 1 -P 4 rm', ['rm']],
    ['xargs --max-chars 200 rm', ['rm']],
    ['xargs --max-chars=200 rm', ['rm']],
    ['sudo rm x', ['sudo', 'rm']],
    ['sudo -u root rm x', ['sudo', 'rm']],
    ['doas rm x', ['doas', 'rm']],
    ['bash -c "rm x"', ['bash', 'rm']],
    ["sh -c 'echo a; rm x'", ['sh', 'echo', 'rm']],
    ['bash -lc "rm x"', ['bash', 'rm']],
    ["bash -o errexit -c 'rm f'", ['bash', 'rm']],
    ["bash -euo pipefail -c 'rm f'", ['bash', 'rm']],
    ["bash -c -- 'rm f'", ['bash', 'rm']],
    ["bash -c -e 'rm f'", ['bash', 'rm']],
    ['eval "rm x"', ['rm']],
    ["eval 'echo a' '&& rm x'", ['echo', 'rm']],
    ["trap 'rm f' EXIT", ['trap', 'rm']],
    ["trap -- 'rm f' EXIT", ['trap', 'rm']],
    ["watch -n 1 'rm f'", ['rm']],
    ['find . -exec rm {} \\;', ['rm', 'find']],
    ['find . -execdir rm {} +', ['rm', 'find']],
    ["find . -ok rm {} ';'", ['rm', 'find']],
    ['find . -name x -exec echo {} \\; -exec rm {} +', ['echo', 'rm', 'find']],
    ['FOO=1 rm x', ['rm']],
    ['FOO=1 BAR=2 env rm x', ['rm']],
    ['if true; then rm x; fi', ['true', 'rm']],
    ['for f in *; do rm "$f"; done', ['rm']],
    ['while read l; do rm x; done < list', ['read', 'rm']],
    ['cat <<EOF\n$(rm x)\nEOF', ['cat', 'rm']],
    ['bash <<EOF\nrm x\nEOF', ['bash', 'rm']],
    ['cat <<EOF\nrm x\nEOF', ['cat']],
    ['/bin/bash <<EOF\nrm x\nEOF', ['bash', 'rm']],
    ['\\bash <<EOF\nrm x\nEOF', ['bash', 'rm']],
    ['export A=1 && rm x', ['export', 'rm']],
    ['! rm x', ['rm']],
    ['rm x &', ['rm']],
  ];
  for (const [command, expected] of cases) {
    it(JSON.stringify(command), async () => {
      expect(await names(command)).toEqual(expected);
    });
  }

  it('records substitutions, the files written and read', async () => {
    const analysis = await analyzeCommand(
      'echo $(date) > out.txt 2>&1; cat x 2>/dev/null >> log.txt < in.txt; echo >&2; echo x >| c &> d',
    );
    expect(analysis.substitutions).toEqual(['$(date)']);
    expect(analysis.writes).toEqual(['out.txt', 'log.txt', 'c', 'd']);
    expect(analysis.reads).toEqual([{ value: 'in.txt', literal: true }]);
  });

  it('counts numbers and dashes as files unless the operator duplicates a descriptor', async () => {
    expect((await analyzeCommand('echo x > 7')).writes).toEqual(['7']);
    expect((await analyzeCommand('echo x &>> -')).writes).toEqual(['-']);
    expect((await analyzeCommand('echo x >&2 2>&1 >&-')).writes).toEqual([]);
    expect((await analyzeCommand('echo x >&out')).writes).toEqual(['out']);
    expect((await analyzeCommand('echo x > /dev/stdout')).writes).toEqual(['/dev/stdout']);
    expect((await analyzeCommand('echo x > /dev/null')).writes).toEqual([]);
    expect((await analyzeCommand('time -o t.txt ls')).writes).toEqual(['t.txt']);
  });

  it('reads and writes no file when a redirection duplicates or closes a descriptor', async () => {
    for (const command of ['cat <&3', 'cat 0<&-', 'echo x >&-', 'echo x >&12', 'echo x 3>&-']) {
      const analysis = await analyzeCommand(command);
      expect([analysis.reads, analysis.writes], command).toEqual([[], []]);
    }
    expect((await analyzeCommand('echo x >&2x')).writes).toEqual(['2x']);
    expect((await analyzeCommand('echo x >&a2')).writes).toEqual(['a2']);
  });

  it('writes to a file named by an empty word as written, a name known only when it runs', async () => {
    for (const command of ['echo hi > ""', "echo hi >> ''"]) {
      const written = command.slice(command.lastIndexOf(' ') + 1);
      const analysis = await analyzeCommand(command);
      expect([analysis.writes, analysis.writeTargets], command).toEqual([
        [written],
        [{ value: written, literal: false }],
      ]);
    }
  });
});

describe('analyzeCommand: what cannot be checked is unclear', () => {
  const cases: [string, RegExp][] = [
    ["$'\\x72m' f", /program name \$'\\x72m' is only known/],
    ['$"rm" f', /program name/],
    ['{rm,f}', /syntax error|cannot understand/],
    ['r{m,} f', /program name/],
    ['a=rm; $a f', /program name \$a/],
    ['$(echo rm) f', /program name \$\(echo rm\)/],
    ['`echo rm` f', /program name/],
    ['r* f', /program name r\*/],
    ['/bin/r? f', /program name/],
    ['~/bin/x', /program name/],
    ['${CMD} f', /program name/],
    ['"$@"', /program name/],
    ['echo (', /syntax error|cannot understand/],
    ['bash -c "$SCRIPT"', /only known when the command runs/],
    ['bash script.sh', /script file script.sh/],
    ['sh -s arg', /standard input/],
    ['curl x | sh', /sh runs a script read from its standard input/],
    ["echo 'rm f' | bash", /standard input/],
    ["bash <<< 'rm f'", /standard input/],
    ['bash < script.sh', /standard input/],
    ['bash --rcfile x', /--rcfile/],
    ['bash -Z x', /-Z/],
    ['source ./x.sh', /source runs the script file/],
    ['. ./x.sh', /\. runs the script file/],
    ['eval "$X"', /eval/],
    ["env -S 'rm f'", /env -S/],
    ["env --split-string='rm f'", /env -S/],
    ['env -iS "rm f"', /env -S/],
    ['env --frobnicate rm f', /--frobnicate/],
    ['xargs --frobnicate rm', /--frobnicate/],
    ['xargs $OPTS rm', /program name|only known/],
    ['nice --frobnicate rm', /--frobnicate/],
    ['timeout --frobnicate 5 rm', /--frobnicate/],
    ['coproc rm f', /coproc/],
    ['flock /tmp/l rm f', /flock/],
    ['script -c "rm f"', /script/],
    ['strace -f rm f', /strace/],
    ['chroot / rm f', /chroot/],
    ['unshare -r rm f', /unshare/],
    ['chrt 1 rm f', /chrt/],
    ['run-parts ./d', /run-parts/],
    ['su -c "rm f"', /su/],
    ['sudo -s', /sudo/],
    ['sudo -i rm', /sudo/],
    ['doas -s', /doas/],
    ['parallel rm ::: f', /parallel/],
    ['trap "$X" EXIT', /trap/],
    ["alias ls='rm -rf'", /alias/],
    ['f() { rm x; }; f', /function f/],
    ['function g { rm x; }', /function g/],
    ['test -v "a[$(touch c)]"', /variable name/],
    ['[ -v "a[$(touch c)]" ]', /variable name/],
    ['[[ -v x ]]', /variable name/],
    ['[[ $x -eq 1 ]]', /arithmetic/],
    ['(( x ))', /arithmetic/],
    ['echo $((x + 1))', /arithmetic/],
    ['for ((i = 0; i < n; i++)); do :; done', /arithmetic/],
    ['for ((i = j; i < 3; i++)); do :; done', /arithmetic/],
    ['for ((i == 0; i < 3; i++)); do :; done', /arithmetic/],
    ['for ((i = 0; i < 3; j++)); do :; done', /arithmetic/],
    ['for ((i = 0; i < a[1]; i++)); do :; done', /arithmetic/],
    ['for ((i = 0; i < 10x; i++)); do :; done', /arithmetic/],
    ['for ((i = 0; i < 3; i++)); do echo $((i + j)); done', /arithmetic/],
    ['for ((i = 0; i < 3; i++)); do :; done; echo $((i))', /arithmetic/],
    ['for ((REPLY = 0; REPLY < 3; REPLY++)); do read; done', /arithmetic/],
    ['for ((Ni = 0; ; )); do echo; done', /arithmetic/],
    ['for ((i = 0; i < n2; i++)); do echo; done', /arithmetic/],
    ['for ((i = 0; i < 3; i++)); do echo x$((i))i; done', /counter/],
    ['for ((i = 0; i < 3; i++)); do echo x${i}i; done', /counter/],
    ['for ((i = 0; i < 3; i++)); do read i; done', /i, a loop's counter/],
    ['for ((i = 0; i < 3; i++)); do printf -v i x; done', /counter/],
    ['for ((i = 0; i < 3; i++)); do for i in x; do :; done; done', /counter/],
    ['for ((i = 0; i < 3; i++)); do echo ${i:=x}; done', /counter/],
    ['for ((i = 0; i < 3; i++)); do :; done; eval "read i"', /counter/],
    ['for ((i = 0; i < 3; i++)); do :; done; eval "read ${i}x i"', /counter/],
    ['echo $[1 + x]', /arithmetic/],
    ['echo ${y:-$[$[1]]}', /\$\[/],
    ['echo ${a[x]}', /subscript/],
    ['echo ${a[1x]}', /subscript/],
    ['echo ${a[x1]}', /subscript/],
    ['a[i]=1', /subscript/],
    ['echo $[x]', /\$\[/],
    ['printf -v "a[$(touch c)]" x', /printf -v/],
    ['printf "$fmt" x', /printf/],
    ['read "a[$(touch c)]"', /variable name/],
    ['read -a "a[$(touch c)]"', /variable name/],
    ["declare 'a[$(touch c)]=1'", /variable name/],
    ['declare -n ref=x', /-n/],
    ['local -i n=x', /-i/],
    ["unset 'a[$(touch c)]'", /variable name/],
    ['mapfile -C cb arr', /callback/],
    ['getopts ab "a[$(x)]"', /variable name/],
    ['echo "${x@P}"', /@P/],
    ['echo ${!x}', /named by another variable/],
    ['echo ${x:y}', /offset/],
    ['let x=1', /let/],
    ['hash -p /tmp/evil ls', /hash -p/],
    ['enable -f ./x.so x', /enable/],
    ['PATH=./bin:$PATH ls', /PATH/],
    ['LD_PRELOAD=./x.so ls', /LD_PRELOAD/],
    ['export PATH=./bin', /PATH/],
    ['BASH_ENV=./x bash -c ls', /BASH_ENV/],
    ['GIT_EXTERNAL_DIFF=./x.sh git diff', /GIT_EXTERNAL_DIFF/],
    ['env GIT_SSH_COMMAND=x git fetch', /GIT_SSH_COMMAND/],
    ['RIPGREP_CONFIG_PATH=./rgrc rg x', /RIPGREP_CONFIG_PATH/],
    ['find . -exec rm {}', /terminating/],
    ['env -C /tmp cat x', /env -C/],
    ['env --chdir=.. cat x', /env -C/],
    ['for PATH in ./bin; do ls; done', /loop sets PATH/],
    ['select PATH in ./bin; do ls; done', /loop sets PATH/],
    ['printf -v PATH %s ./bin', /printf sets PATH/],
    ['read PATH', /read sets PATH/],
    ['read -a PATH', /read sets PATH/],
    ['mapfile -t PATH', /mapfile sets PATH/],
    ['unset PATH', /unset sets PATH/],
    ['getopts ab PATH', /getopts sets PATH/],
    ['wait -p PATH', /wait sets PATH/],
    ['command read PATH', /read sets PATH/],
    ['echo ${PATH:=./bin}', /sets PATH when it is empty/],
    ['echo ${PATH=./bin}', /sets PATH when it is empty/],
    ['echo ${PATH[10]:=./bin}', /sets PATH when it is empty/],
    ['echo ${PATH[0]=./bin}', /sets PATH when it is empty/],
    ['BASH_CMDS[ls]=./x', /BASH_CMDS/],
  ];
  for (const [command, why] of cases) {
    it(JSON.stringify(command), async () => {
      const { unclear } = await analyzeCommand(command);
      expect(unclear.length, `nothing unclear in ${command}`).toBeGreaterThan(0);
      expect(unclear.join('; ')).toMatch(why);
    });
  }

  it('reports nesting beyond five levels', async () => {
    let command = 'ls';
    for (let i = 0; i < 6; i++) command = `eval ${JSON.stringify(command)}`;
    expect((await analyzeCommand(command)).unclear).toContain('commands nested too deeply');
    let five = 'ls';
    for (let i = 0; i < 5; i++) five = `eval ${JSON.stringify(five)}`;
    expect((await analyzeCommand(five)).unclear).toEqual([]);
  });

  it('leaves plain commands clear', async () => {
    for (const command of [
      'ls -la',
      'git status && git diff',
      'FOO=1 npm test',
      'export NODE_ENV=test',
      'x=1; echo $x',
      'echo $((1 + 2))',
      '[ -f x ] && cat x',
      '[[ -f x ]]',
      'echo ${x:-default} ${#x} ${x%.ts} ${x:1:2}',
      'echo ${a[12]} ${a[@]} ${a[*]}',
      'find . -name "*.ts" -exec grep -l x {} +',
      'xargs -I{} echo {}',
      'read -r line',
      'printf "%s\\n" a',
      'for f in a b; do echo $f; done',
      'echo ${x:=1} ${y=2}',
    ]) {
      expect((await analyzeCommand(command)).unclear, command).toEqual([]);
    }
  });
});

describe('deny rules', () => {
  const deny = (entries: string[]) => ({ denyRules: shellRules(entries) });

  it('match a command whose checked words are only known at run time', async () => {
    const rmRf = shellRules(['run_shell_command(rm -rf)'])[0]!;
    const first = async (command: string) => (await analyzeCommand(command)).commands[0]!;
    expect(ruleMatches(rmRf, await first('rm $flags x'), 'deny')).toBe(true);
    expect(ruleMatches(rmRf, await first('rm $flags x'), 'allow')).toBe(false);
    expect(ruleMatches(rmRf, await first('rm -r* x'), 'deny')).toBe(true);
    expect(ruleMatches(rmRf, await first('rm -i x'), 'deny')).toBe(false);
    expect(ruleMatches(rmRf, await first('rm'), 'deny')).toBe(false);
    const viaXargs = (await analyzeCommand('xargs rm')).commands[0]!;
    expect(ruleMatches(rmRf, viaXargs, 'deny')).toBe(true);
    expect(ruleMatches(rmRf, viaXargs, 'allow')).toBe(false);
    expect(ruleMatches(rmRf, await first('rm -rf x'), 'allow')).toBe(true);
  });

  it('refuse a line with anything unclear, saying why', async () => {
    const decision = await decide('$(echo rm) f', deny(['run_shell_command(rm)']));
    expect(decision.kind).toBe('deny');
    expect(decision.kind === 'deny' && decision.message).toMatch(
      /cannot be checked against the deny rules \(run_shell_command\(rm\) in tools\.exclude\): the program name \$\(echo rm\) is only known when the command runs/,
    );
  });

  it('name the command, the runner and the rule', async () => {
    const decision = await decide('ls && /bin/rm -rf build', deny(['run_shell_command(rm -rf)']));
    expect(decision).toEqual({
      kind: 'deny',
      message: expect.stringContaining(
        '"/bin/rm -rf build" is blocked by the rule run_shell_command(rm -rf) in tools.exclude',
      ),
    });
    const viaFind = await decide('find . -execdir rm {} +', deny(['run_shell_command(rm)']));
    expect(viaFind.kind === 'deny' && viaFind.message).toContain('(run by find -execdir)');
  });

  it('leave clear lines that no rule matches to the other rules', async () => {
    expect((await decide('ls -la', deny(['run_shell_command(rm)']))).kind).toBe('allow');
    expect((await decide('mkdir x', deny(['run_shell_command(rm)']))).kind).toBe('ask');
  });
});

describe('allow rules', () => {
  const allow = (entries: string[], sessionAllowed: string[] = []) => ({
    allowRules: shellRules(entries),
    sessionAllowed: new Set(sessionAllowed),
  });

  it('match whole words as a prefix', async () => {
    const git = allow(['run_shell_command(git)']);
    expect((await decide('git commit -m x', git)).kind).toBe('allow');
    expect((await decide('gitk', git)).kind).toBe('ask');
    const gitStatus = allow(['run_shell_command(git status)']);
    expect((await decide('git status --short', gitStatus)).kind).toBe('allow');
    expect((await decide('git push', gitStatus)).kind).toBe('ask');
    expect((await decide('git $sub', gitStatus)).kind).toBe('ask');
  });

  it('allow a line only when every command is allowed', async () => {
    const decision = await decide(
      'npm test && npm publish',
      allow(['run_shell_command(npm test)']),
    );
    expect(decision).toMatchObject({ kind: 'ask', rootCommands: ['npm'] });
  });

  it('never approve a substitution or an unclear part, even of allowed commands', async () => {
    expect(await decide('npm test $(npm bin)', allow(['run_shell_command(npm)']))).toMatchObject({
      kind: 'ask',
      reasons: [expect.stringContaining('$(npm bin)')],
    });
    expect((await decide('bash script.sh', allow(['run_shell_command(bash)']))).kind).toBe('ask');
  });

  it('remember session answers by command name', async () => {
    expect((await decide('make build', allow([], ['make']))).kind).toBe('allow');
  });

  it('read paths of rules by program name', async () => {
    expect((await decide('/usr/bin/make', allow(['run_shell_command(make)']))).kind).toBe('allow');
  });

  it('allow a program given by its path only when a rule or answer names that path', async () => {
    expect((await decide('./make', allow(['run_shell_command(make)']))).kind).toBe('ask');
    expect((await decide('./make', allow([], ['make']))).kind).toBe('ask');
    expect((await decide('./make', allow(['run_shell_command(./make)']))).kind).toBe('allow');
    expect((await decide('./make x', allow([], ['./make']))).kind).toBe('allow');
    expect(await decide('bin/make', allow([]))).toMatchObject({
      kind: 'ask',
      rootCommands: ['bin/make'],
      reasons: expect.arrayContaining([
        expect.stringMatching(/bin\/make runs a program by its path/),
      ]),
    });
  });
});

describe('a program given by its path', () => {
  const deny = { denyRules: shellRules(['run_shell_command(rm)']) };
  it('is unclear, so refused while deny rules exist', async () => {
    for (const command of ['./ls', 'bin/grep x', 'timeout 5 ./ls', 'env ./cat a', '/ws/ls'])
      expect((await decide(command, deny)).kind, command).toBe('deny');
  });

  it('is the command itself in a system folder outside the workspace', async () => {
    expect((await decide('/usr/bin/cat a.txt')).kind).toBe('allow');
    expect((await decide('/bin/cat a.txt', deny)).kind).toBe('allow');
  });
});

describe('what may outlive the call is not read-only', () => {
  for (const command of [
    'tail -f a &',
    'cat a & cat b',
    'nohup cat a',
    'setsid cat a',
    'setsid -f cat a',
    'setsid --fork cat a',
  ]) {
    it(JSON.stringify(command), async () => {
      const analysis = await analyzeCommand(command);
      expect(analysis.unclear).toEqual([]);
      expect(analysis.notReadOnly.join('; ')).toMatch(/running/);
      expect((await decide(command)).kind).toBe('ask');
    });
  }

  it('setsid -w waits, and && is no background', async () => {
    for (const command of ['setsid -w cat a', 'cat a && cat b', 'cat a &> /dev/null'])
      expect((await decide(command)).kind, command).toBe('allow');
  });
});

describe('every ask says why', () => {
  for (const command of [
    'mkdir x',
    'ls > files.txt',
    'sort -o out in',
    'cat /etc/passwd',
    'x=1',
    '[[ -f x ]]',
    'FOO=1 ls',
    'echo $(date)',
    'bash x.sh',
  ]) {
    it(JSON.stringify(command), async () => {
      const decision = await decide(command);
      expect(decision.kind).toBe('ask');
      const reasons = decision.kind === 'ask' ? decision.reasons : [];
      expect(reasons.length).toBeGreaterThan(0);
      for (const reason of reasons) expect(reason).toMatch(/^[\w$`"'[(.~/{-].{8,}/);
    });
  }
});

describe('analyzeCommand: what it does not fully understand asks', () => {
  const allowAll = { allowRules: shellRules(['echo', 'cat', 'ls', 'export']) };

  it('reports a syntax error even where the parser only inserted a missing token', async () => {
    const analysis = await analyzeCommand('echo $(ls');
    expect(analysis.unclear).toEqual(['the command has a syntax error']);
    expect((await decide('echo $(ls', allowAll)).kind).toBe('ask');
  });

  it('quotes the first 40 characters of the part it cannot understand', async () => {
    const command = `if true; then ls ${'a'.repeat(50)}`;
    expect((await analyzeCommand(command)).unclear).toContain(
      `cannot understand "${command.slice(0, 40)}"`,
    );
    expect((await decide(command, allowAll)).kind).toBe('ask');
  });

  it('shows at most 60 characters of an arithmetic expression', async () => {
    const arithmetic = `$((x + ${'1'.repeat(70)}))`;
    expect((await analyzeCommand(`echo ${arithmetic}`)).unclear).toEqual([
      `${arithmetic.slice(0, 60)} evaluates variables as arithmetic`,
    ]);
  });

  it('shows at most 60 characters of a loop it does not understand', async () => {
    const loop = `for ((i = 0; i < n; i++)); do echo ${'1'.repeat(70)}; done`;
    expect((await analyzeCommand(loop)).unclear).toEqual([
      `${loop.slice(0, 60)} evaluates variables as arithmetic`,
    ]);
  });

  it('treats a $ left inside arithmetic as not understood', async () => {
    for (const command of ['echo $(( $((1)) + 1 ))', 'echo $(( $[1] + 1 ))'])
      expect((await analyzeCommand(command)).unclear.join('; '), command).toMatch(/arithmetic/);
  });

  it('judges setting an element of a variable that changes what programs run', async () => {
    for (const command of ['PATH[0]=./bin ls', 'LD_PRELOAD[0]=./x.so ls']) {
      expect((await analyzeCommand(command)).unclear.join('; '), command).toMatch(
        /\[0\], which changes what programs run/,
      );
      const refused = await decide(command, { ...allowAll, denyRules: shellRules(['rm']) });
      expect(refused.kind, command).not.toBe('allow');
    }
    expect((await analyzeCommand('export PATH[0]=./bin')).unclear.join('; ')).toMatch(
      /variable name/,
    );
    expect((await analyzeCommand('declare 1x=1')).unclear.join('; ')).toMatch(/variable name/);
  });

  it('names the variable a line sets, and not those set for one command', async () => {
    expect((await analyzeCommand('x=1')).notReadOnly).toEqual(['it sets the variable x']);
    expect((await analyzeCommand('a[1]=1')).notReadOnly).toEqual(['it sets the variable a[1]']);
    expect((await analyzeCommand('FOO=1 ls')).notReadOnly).toEqual([]);
  });

  it('finds $[ ] arithmetic that the parser leaves inside a default value', async () => {
    expect((await analyzeCommand('echo ${y:-$[x]}')).unclear).toContain(
      '$[x] uses $[ ], which evaluates arithmetic',
    );
  });

  it('says which expansion transforms a value', async () => {
    expect((await analyzeCommand('echo "${x@P}"')).unclear).toEqual([
      '${x@P} transforms a value (@P runs the prompt expansion)',
    ]);
  });

  it('finds offsets evaluated as arithmetic after long names and subscripts', async () => {
    for (const command of ['echo ${ab:off}', 'echo ${a[12]:x}', 'echo ${x:yz}']) {
      expect((await analyzeCommand(command)).unclear.join('; '), command).toMatch(/offset/);
    }
  });

  it('records process substitutions, which no rule approves', async () => {
    expect((await analyzeCommand('cat <(rm x)')).substitutions).toEqual(['<(rm x)']);
    expect((await decide('cat <(rm x)', { allowRules: shellRules(['cat', 'rm']) })).kind).toBe(
      'ask',
    );
  });

  it('reads a here-document as a script only when a shell command is given it', async () => {
    expect(await names('bash <<EOF\nrm x\nEOF')).toEqual(['bash', 'rm']);
    // The function is named like a shell, but the here-document goes to its body, `:`.
    expect(await names('bash() { :; } <<EOF\nrm x\nEOF')).toEqual([':']);
  });

  it('writes the unquoted name of a quoted redirection target', async () => {
    expect((await analyzeCommand('echo x > "out file"')).writes).toEqual(['out file']);
  });

  it('reads no file for <&name, which bash refuses as an ambiguous redirect', async () => {
    expect((await analyzeCommand('cat <&x')).reads).toEqual([]);
  });

  it('understands arithmetic that only counts: numbers, operators and loop counters', async () => {
    for (const command of [
      'for ((i = 0; i < 3; i++)); do echo $i; done',
      'for ((i=0,j=i+1; i<3; i++, j*=2)); do for ((k = i; k < j; k++)) { echo $k ${k}; }; done',
      'for ((i = 0; i < 3; i++)); do echo $((i * 2)) $[i + 1] ${y:-$[i]}; ((i > 1)) && echo b; done',
      'for ((i = 0; i < 3; i++))\ndo eval "echo \\$i"; done',
      'for (( ; ; )); do echo y; done',
      'for((here = 0; here < 10; here++)) # counts\ndo echo $here; done',
      'for (( i = 0; i < 2; i++ )); do echo $i; done',
      'echo $[1 + 2] ${y:-$[3 * 4]} $((0x1F + 1)) $((2#101))',
    ]) {
      expect((await analyzeCommand(command)).unclear, command).toEqual([]);
      expect((await decide(command)).kind, command).toBe('allow');
    }
  });

  it('leaves blocks, constant arithmetic and plain names of builtins clear', async () => {
    for (const command of [
      '{ echo a; }',
      '((1 + 2))',
      'for ((;;)) { :; }',
      'unset x',
      'readonly y',
      'declare x=1',
      'echo ${x/"@a}"/b}',
    ]) {
      expect((await analyzeCommand(command)).unclear, command).toEqual([]);
    }
  });
});

describe('files read, as the policy is asked about them', () => {
  it('are resolved before the policy sees them, so a policy comparing text holds', async () => {
    for (const command of ['cat ../etc/passwd', 'cat /ws/../etc/passwd', 'cat a/../../x'])
      expect((await decide(command)).kind, command).toBe('ask');
    expect((await decide('cat a/../b.txt')).kind).toBe('allow');
  });
});
