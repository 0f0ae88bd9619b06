import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, schedulerFixture, signal } from '../../test/helpers/scheduler-fixture.js';
import type { Settings } from '../config/settings.js';
import { ToolConfirmationOutcome } from '../tools/tools.js';

const f = schedulerFixture();

describe('CoreToolScheduler: the person changes a proposal', () => {
  it('applies an inline modification and tells the model', async () => {
    const { scheduler } = f.setup({
      answer: () => ({
        outcome: ToolConfirmationOutcome.ProceedOnce,
        payload: { newContent: 'theirs' },
      }),
    });
    const [done] = await scheduler.schedule(call('write_thing', { content: 'mine' }), signal());
    expect(done?.status).toBe('success');
    const output = String(done?.response.responseParts[0]?.functionResponse?.response?.output);
    expect(output).toContain('done write_thing with theirs');
    expect(output).toContain('the person changed your proposed content');
  });

  it('modify_with_editor asks again with the edited proposal', async () => {
    const answers = [ToolConfirmationOutcome.ModifyWithEditor, ToolConfirmationOutcome.ProceedOnce];
    const { scheduler, asked } = f.setup({
      answer: () => ({ outcome: answers.shift()! }),
      editProposal: async (proposal) => `${proposal.proposedContent} (edited)`,
    });
    const [done] = await scheduler.schedule(call('write_thing', { content: 'mine' }), signal());
    expect(asked).toHaveLength(2);
    const second = asked[1]?.confirmationDetails;
    expect(second?.type === 'edit' && second.newContent).toBe('mine (edited)');
    expect(String(done?.response.responseParts[0]?.functionResponse?.response?.output)).toContain(
      'with mine (edited)',
    );
  });

  describe('modify_with_editor without an editProposal hook', () => {
    /** An editor program that writes its own name into the file it is given. */
    function editor(name: string) {
      const file = path.join(f.base, `${name}.sh`);
      writeFileSync(file, `#!/bin/sh\nprintf "from ${name}" > "$1"\n`);
      chmodSync(file, 0o755);
      return file;
    }
    async function editedWith(settings: Settings) {
      const answers = [
        ToolConfirmationOutcome.ModifyWithEditor,
        ToolConfirmationOutcome.ProceedOnce,
      ];
      const { scheduler } = f.setup({ settings, answer: () => ({ outcome: answers.shift()! }) });
      const [done] = await scheduler.schedule(call('write_thing', { content: 'mine' }), signal());
      return String(done?.response.responseParts[0]?.functionResponse?.response?.output);
    }
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('opens $EDITOR when neither settings nor $VISUAL name one', async () => {
      vi.stubEnv('VISUAL', '');
      vi.stubEnv('EDITOR', editor('editor'));
      expect(await editedWith({})).toContain('with from editor');
    });

    it('prefers $VISUAL to $EDITOR', async () => {
      vi.stubEnv('VISUAL', editor('visual'));
      vi.stubEnv('EDITOR', editor('editor'));
      expect(await editedWith({})).toContain('with from visual');
    });

    it('prefers general.preferredEditor to both', async () => {
      vi.stubEnv('VISUAL', editor('visual'));
      vi.stubEnv('EDITOR', editor('editor'));
      expect(await editedWith({ general: { preferredEditor: editor('settings') } })).toContain(
        'with from settings',
      );
    });
  });
});
