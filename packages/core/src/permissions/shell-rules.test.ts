import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../shell/command-analysis.js';
import { decideShell } from '../shell/shell-permissions.js';
import { shellPolicyRules } from './decision.js';
import { rulesFromSettings } from './permission-rules.js';

const decide = async (
  command: string,
  permissions: { allow?: string[]; ask?: string[]; deny?: string[] },
) => {
  const rules = shellPolicyRules(rulesFromSettings({ permissions }));
  return decideShell(await analyzeCommand(command), {
    allowRules: rules.allow,
    askRules: rules.ask,
    denyRules: rules.deny,
    allowAll: rules.allowAll,
    sessionAllowed: new Set(),
    // Nothing is readable, so nothing passes as read-only: only rules decide.
    readOnly: { cwd: '/ws', canRead: () => false, homeDir: '/home/u' },
  });
};

describe('Bash(...) rules against parsed lines', () => {
  it('allows by prefix with :* and with a final *, whole words only', async () => {
    for (const rule of ['Bash(git diff:*)', 'Bash(git diff *)']) {
      expect((await decide('git diff', { allow: [rule] })).kind, rule).toBe('allow');
      expect((await decide('git diff --stat HEAD', { allow: [rule] })).kind, rule).toBe('allow');
      expect((await decide('git diffx', { allow: [rule] })).kind, rule).toBe('ask');
      expect((await decide('git commit', { allow: [rule] })).kind, rule).toBe('ask');
    }
  });

  it('allows a rule without * as that exact command only', async () => {
    const allow = ['Bash(npm run test)'];
    expect((await decide('npm run test', { allow })).kind).toBe('allow');
    expect((await decide('npm run test -- --watch', { allow })).kind).toBe('ask');
    // The older toolhost form stays a prefix.
    expect(
      (await decide('npm run test -- --watch', { allow: ['run_shell_command(npm run test)'] }))
        .kind,
    ).toBe('allow');
  });

  it('never lets an allow rule approve a second command or a substitution', async () => {
    const allow = ['Bash(git diff:*)'];
    for (const line of [
      'git diff; rm -rf x',
      'git diff && touch canary',
      'git diff | sh',
      'git diff $(touch canary)',
      'git diff `touch canary`',
      'git diff <(touch canary)',
    ])
      expect((await decide(line, { allow })).kind, line).toBe('ask');
  });

  it('denies a command anywhere in the line, also behind wrappers and substitutions', async () => {
    const deny = ['Bash(rm:*)'];
    for (const line of [
      'ls && rm x',
      'ls; rm x',
      'echo $(rm x)',
      'xargs rm < list',
      'sudo rm x',
      'find . -exec rm {} +',
      'bash -c "rm x"',
    ])
      expect((await decide(line, { deny })).kind, line).toBe('deny');
    expect((await decide('ls -la', { deny })).kind).not.toBe('deny');
  });

  it('denies what it cannot check while a deny rule exists', async () => {
    const result = await decide('$(echo rm) x', { deny: ['Bash(rm:*)'] });
    expect(result.kind).toBe('deny');
  });

  it('makes an ask rule ask even when an allow rule or Bash allows the command', async () => {
    const result = await decide('git push origin main', {
      allow: ['Bash', 'Bash(git:*)'],
      ask: ['Bash(git push:*)'],
    });
    expect(result).toMatchObject({ kind: 'ask', askedByRules: ['Bash(git push:*)'] });
    expect((await decide('git status', { allow: ['Bash'], ask: ['Bash(git push:*)'] })).kind).toBe(
      'allow',
    );
    // Deny still wins over ask.
    expect(
      (await decide('git push', { ask: ['Bash(git push)'], deny: ['Bash(git:*)'] })).kind,
    ).toBe('deny');
  });

  it('asks about a line it cannot check while an ask rule exists', async () => {
    const result = await decide('$(echo git) push', { allow: ['Bash'], ask: ['Bash(git push)'] });
    expect(result).toMatchObject({ kind: 'ask', askedByRules: ['Bash(git push)'] });
  });

  it('matches * in the middle of a rule and inside a word', async () => {
    expect((await decide('git push origin main', { deny: ['Bash(git * main)'] })).kind).toBe(
      'deny',
    );
    expect((await decide('git push origin dev', { deny: ['Bash(git * main)'] })).kind).not.toBe(
      'deny',
    );
    expect((await decide('lsof -i', { deny: ['Bash(ls*)'] })).kind).toBe('deny');
  });
});

describe("git's own options before the subcommand", () => {
  it('match a push rule however they are written', async () => {
    for (const line of [
      'git -C . push origin main',
      'git -c color.ui=never push',
      'git -P push',
      'git --no-pager push',
      'git -p push',
      'git --git-dir=.git push',
      'git --git-dir .git --work-tree . push',
      'git --namespace=x push',
      'git --config-env=core.pager=HOME push',
      'git --exec-path=/usr/lib/git-core push',
      'git --literal-pathspecs --no-optional-locks push',
      'git --bare -C sub push',
      'git $opts push',
    ]) {
      expect((await decide(line, { deny: ['Bash(git push:*)'] })).kind, line).toBe('deny');
      expect(
        await decide(line, { allow: ['Bash'], ask: ['Bash(git push:*)'] }),
        line,
      ).toMatchObject({ kind: 'ask', askedByRules: ['Bash(git push:*)'] });
    }
    // An option git does not know stops git itself; other subcommands stay apart.
    expect((await decide('git -C . pull', { deny: ['Bash(git push:*)'] })).kind).not.toBe('deny');
    expect((await decide('git -P status', { allow: ['Bash(git status)'] })).kind).toBe('allow');
    // -C to a folder outside the workspace (nothing is inside here) asks.
    expect((await decide('git -C . status', { allow: ['Bash(git status)'] })).kind).toBe('ask');
  });

  it('ask when they change configuration or the program run, even under an allow rule', async () => {
    for (const line of [
      'git -c core.pager=./x diff',
      'git --config-env=diff.external=X diff',
      'git --exec-path=./bin diff',
      'git --git-dir=other/.git diff',
      'git --work-tree=/ diff',
    ]) {
      const decision = await decide(line, { allow: ['Bash(git diff:*)'] });
      expect(decision.kind, line).toBe('ask');
      // A deny rule for any command makes such a line impossible to check.
      expect((await decide(line, { deny: ['Bash(rm:*)'] })).kind, line).toBe('deny');
    }
  });
});

describe('variables that change which program runs', () => {
  it('ask under an allow rule and are refused while deny rules exist', async () => {
    for (const line of [
      'XDG_CONFIG_HOME=cfg git diff HEAD~1',
      'env XDG_CONFIG_HOME=cfg git diff',
      'export XDG_CONFIG_HOME=cfg; git diff',
      'GIT_CONFIG_GLOBAL=x git diff',
      'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0=./x git diff',
      'GIT_EXTERNAL_DIFF=./x git diff',
      'PAGER=./x git diff',
      'HOME=. git diff',
      'PYTHONWARNINGS=x git diff',
      'npm_config_script_shell=./x git diff',
    ]) {
      expect((await decide(line, { allow: ['Bash(git diff:*)'] })).kind, line).toBe('ask');
      expect((await decide(line, { deny: ['Bash(git push:*)'] })).kind, line).toBe('deny');
    }
    expect((await decide('LANG=C git diff', { allow: ['Bash(git diff:*)'] })).kind).toBe('allow');
  });
});

describe('output redirections under allow rules', () => {
  it('make an allowed command a write that asks', async () => {
    for (const [line, rule] of [
      ['git diff > victim.txt', 'Bash(git diff:*)'],
      ['git diff >> victim.txt', 'Bash(git diff:*)'],
      ['git diff >| victim.txt', 'Bash(git diff:*)'],
      ['git diff &> victim.txt', 'Bash(git diff:*)'],
      ['git diff 2> victim.txt', 'Bash(git diff:*)'],
      ['git diff >& victim.txt', 'Bash(git diff:*)'],
      ['git diff --output=victim.txt', 'Bash(git diff:*)'],
      ['git diff --output victim.txt', 'Bash(git diff:*)'],
      ['ls > f', 'Bash(ls:*)'],
      ['npm test > f', 'Bash(npm test:*)'],
      ['ls > $f', 'Bash(ls:*)'],
      ['ls', 'Bash'],
    ] as const) {
      const decision = await decide(line, { allow: [rule] });
      if (line === 'ls') expect(decision.kind).toBe('allow');
      else expect(decision.kind, line).toBe('ask');
    }
    for (const line of [
      'git diff 2>/dev/null',
      'git diff 2>&1',
      'git diff <<< x',
      'git diff < /dev/null',
    ])
      expect((await decide(line, { allow: ['Bash(git diff:*)'] })).kind, line).toBe('allow');
  });
});
