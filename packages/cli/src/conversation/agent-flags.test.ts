import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { approvalModeFrom, limitsFrom } from './agent-flags.js';

describe('the names the Claude Agent SDK passes', () => {
  it('--permission-mode is --approval-mode in Claude’s words', () => {
    expect(approvalModeFrom({ permissionMode: 'acceptEdits' })).toBe('auto-edit');
    expect(approvalModeFrom({ permissionMode: 'bypassPermissions' })).toBe('yolo');
    expect(approvalModeFrom({ permissionMode: 'plan', approvalMode: 'plan' })).toBe('plan');
    expect(() => approvalModeFrom({ permissionMode: 'plan', approvalMode: 'yolo' })).toThrow(
      UsageError,
    );
    expect(() => approvalModeFrom({ permissionMode: 'default', yolo: true })).toThrow(UsageError);
  });

  it('--max-turns is --max-session-turns, which wins when both are given', () => {
    expect(limitsFrom({ maxTurns: '3' })).toEqual({ maxTurns: 3 });
    expect(limitsFrom({ maxTurns: '3', maxSessionTurns: '5' })).toEqual({ maxTurns: 5 });
    expect(() => limitsFrom({ maxTurns: 'many' })).toThrow('--max-turns takes a whole number');
  });
});
