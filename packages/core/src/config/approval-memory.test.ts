import { describe, expect, it } from 'vitest';
import { makeWorkspace } from '../../test/helpers/temp-workspace.js';
import { ApprovalMemory, withApprovalMemory } from './approval-memory.js';

describe('approval memory', () => {
  it("keeps each approver's always answers and mode apart from the others' and the person's", async () => {
    const ws = makeWorkspace();
    try {
      const { config } = ws;
      const a = new ApprovalMemory();
      const b = new ApprovalMemory();
      await withApprovalMemory(a, async () => {
        await Promise.resolve();
        config.sessionAllowedShellCommands.add('touch');
        config.sessionAllowedTools.add('write_file');
        config.sessionAllowedHosts.add('example.com');
        config.sessionAllowedMcp.add('server');
        config.setApprovalMode('auto-edit');
      });
      expect(a.shellCommands.has('touch')).toBe(true);
      withApprovalMemory(b, () => {
        expect(config.sessionAllowedShellCommands.has('touch')).toBe(false);
        expect(config.sessionAllowedTools.size).toBe(0);
        expect(config.sessionAllowedHosts.size).toBe(0);
        expect(config.sessionAllowedMcp.size).toBe(0);
        expect(config.getApprovalMode()).toBe('default');
      });
      expect(config.sessionAllowedShellCommands.size).toBe(0);
      expect(config.getApprovalMode()).toBe('default');
      withApprovalMemory(a, () => expect(config.getApprovalMode()).toBe('auto-edit'));
    } finally {
      ws.cleanup();
    }
  });
});
