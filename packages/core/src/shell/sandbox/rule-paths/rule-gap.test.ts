import { describe, expect, it } from 'vitest';
import type { ShellDecision } from '../../shell-permissions.js';
import type { CoveredPaths } from './covered.js';
import { ruleGap } from './rule-gap.js';

const workspace = { relative: (file: string) => file.replace('/ws/', '') };
const file = (name: string, rule: string) => ({
  path: `/ws/${name}`,
  foundAs: `/ws/${name}`,
  folder: false,
  effect: 'hide' as const,
  rule,
  dev: 0,
  ino: 0,
});
const SOME: CoveredPaths = {
  paths: [
    file('a', 'Read(./a)'),
    file('b', 'Read(./b)'),
    file('c', 'Read(./c)'),
    file('d', 'Read(./c)'),
  ],
  unenforced: [],
};
const UNFOUND: CoveredPaths = {
  paths: [],
  unenforced: [{ rule: 'Read(*.pem)', source: 'permissions.deny', reason: 'too many' }],
};
const approved: ShellDecision = { kind: 'allow', reason: 'rules' };
const readOnly: ShellDecision = { kind: 'allow', reason: 'read_only' };
const asked: ShellDecision = { kind: 'ask', rootCommands: ['x'], reasons: [] };

describe('ruleGap', () => {
  it('is none under bwrap while every rule was found, or with nothing covered', () => {
    expect(ruleGap(SOME, true, approved, workspace)).toBeNull();
    expect(ruleGap({ paths: [], unenforced: [] }, false, approved, workspace)).toBeNull();
  });

  it('names the rules bwrap cannot hold, for any command', () => {
    const gap = ruleGap(UNFOUND, true, readOnly, workspace);
    expect(gap?.rules).toEqual(['Read(*.pem)']);
    expect(gap?.reason).toContain('the sandbox cannot hold Read(*.pem) (too many)');
  });

  it('without bwrap, asks for any command but a read-only line whose paths were checked', () => {
    expect(ruleGap(SOME, false, readOnly, workspace)).toBeNull();
    for (const decision of [approved, asked]) {
      const gap = ruleGap(SOME, false, decision, workspace);
      expect(gap?.rules).toEqual(['Read(./a)', 'Read(./b)', 'Read(./c)']);
      expect(gap?.reason).toContain(
        'cover: a, b, c and 1 more, and this command could read or change it',
      );
    }
    expect(ruleGap(UNFOUND, false, approved, workspace)?.rules).toEqual(['Read(*.pem)']);
  });
});
