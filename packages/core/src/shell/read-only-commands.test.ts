import { describe, expect, it } from 'vitest';
import { analyzeCommand } from './command-analysis.js';
import { READ_ONLY_COMMANDS } from './read-only-commands.js';
import { decideShell } from './shell-permissions.js';

const runsWithoutAsking = async (command: string) =>
  decideShell(await analyzeCommand(command), {
    allowRules: [],
    denyRules: [],
    sessionAllowed: new Set(),
  }).kind === 'allow';

describe('the read-only command table', () => {
  for (const [name, entry] of Object.entries(READ_ONLY_COMMANDS)) {
    describe(name, () => {
      for (const example of entry.examples.readOnly) {
        it(`runs ${JSON.stringify(example)} without asking`, async () => {
          expect(await runsWithoutAsking(example)).toBe(true);
        });
      }
      for (const example of entry.examples.notReadOnly) {
        it(`asks before ${JSON.stringify(example)}`, async () => {
          expect(await runsWithoutAsking(example)).toBe(false);
        });
      }
    });
  }

  it('gives every entry examples both ways', () => {
    for (const entry of Object.values(READ_ONLY_COMMANDS)) {
      expect(entry.examples.readOnly.length).toBeGreaterThan(0);
      expect(entry.examples.notReadOnly.length).toBeGreaterThan(0);
    }
  });
});
