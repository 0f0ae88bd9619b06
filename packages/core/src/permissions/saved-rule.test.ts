import { describe, expect, it } from 'vitest';
import type { ToolCallConfirmationDetails } from '../tools/tools.js';
import { decideCall } from './decision.js';
import { rulesFromSettings } from './permission-rules.js';
import { ruleToSave } from './saved-rule.js';

const edit = (filePath: string) =>
  ({
    type: 'edit',
    filePath,
    title: 'Write',
    onConfirm: () => undefined,
  }) as unknown as ToolCallConfirmationDetails;

describe('ruleToSave for a file change', () => {
  it('saves the folder of any name so that the rule covers that folder alone', () => {
    for (const name of ['repo (1)', '[a]', '{b,c}', '@(x)', '!x', 'a*b?', '+(y)']) {
      const rule = ruleToSave('write_file', {}, edit(`/t/${name}/f.txt`));
      expect(rule, name).toBeDefined();
      const rules = rulesFromSettings({ permissions: { allow: [rule!] } });
      const decide = (file: string) =>
        decideCall(
          rules,
          { tool: 'write_file', displayName: 'WriteFile', paths: [file] },
          { projectRoot: '/ws', homeDir: '/home/me' },
        )?.kind;
      expect(decide(`/t/${name}/g.txt`), name).toBe('allow');
      expect(decide('/t/a/g.txt'), name).toBeUndefined();
      expect(decide('/t/b/g.txt'), name).toBeUndefined();
    }
  });
});
