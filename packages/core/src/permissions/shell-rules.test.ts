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
