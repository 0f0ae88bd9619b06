/**
 * Every dialog's key handling, driven through the real components with random key
 * sequences sent as one burst (one write: the app reads them in one go). A dialog with a
 * list of answers must give what a simple model of it gives, once; a server's form must
 * end as the same keys typed one at a time end it. A seeded generator keeps failures
 * reproducible: the seed and the keys are in the message.
 */
import type {
  ConfirmationDecision,
  ToolCallConfirmationDetails,
  WaitingToolCall,
} from '@toolhost/core/tools';
import { render } from 'ink-testing-library';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ApprovalDialog } from './approval-dialog.js';
import { ElicitationForm } from './elicitation-form.js';
import { PageVisitDialog } from './page-visit-dialog.js';
import { PickerDialog } from './picker-dialog.js';

/** A small seeded generator (mulberry32): the same seed, the same sequences. */
function generator(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

type Key = { name: string; raw: string };
const KEYS: Key[] = [
  { name: 'up', raw: '\x1b[A' },
  { name: 'down', raw: '\x1b[B' },
  { name: 'tab', raw: '\t' },
  { name: 'shift-tab', raw: '\x1b[Z' },
  { name: 'enter', raw: '\r' },
  ...['1', '2', '3', '4', '7', 'y', 'a', 'n', 'e', 'x', 'Y'].map((c) => ({ name: c, raw: c })),
];
const ESCAPE: Key = { name: 'escape', raw: '\x1b' };

/** Random keys; Esc only last (in a burst, Esc before another key is that key with Alt). */
function randomKeys(next: (below: number) => number, weights: Key[]): Key[] {
  const keys = Array.from({ length: 1 + next(8) }, () => weights[next(weights.length)]!);
  if (next(6) === 0) keys.push(ESCAPE);
  return keys;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The model: where the marker ends and what the keys answer, for a list of `letters`. */
function modelAnswer(keys: Key[], letters: string[]): number | 'escape' | undefined {
  const count = letters.length;
  let selected = 0;
  for (const key of keys) {
    if (key.name === 'escape') return 'escape';
    if (key.name === 'enter') return selected;
    if (key.name === 'up' || key.name === 'shift-tab') selected = (selected + count - 1) % count;
    else if (key.name === 'down' || key.name === 'tab') selected = (selected + 1) % count;
    else if (/^[1-9]$/.test(key.name) && Number(key.name) <= count) return Number(key.name) - 1;
    else if (letters.includes(key.name.toLowerCase()))
      return letters.indexOf(key.name.toLowerCase());
  }
  return undefined;
}

function callOf(details: Partial<ToolCallConfirmationDetails>, tool: string): WaitingToolCall {
  return {
    status: 'awaiting_approval',
    request: { callId: 'c1', name: tool, args: {} },
    tool: { name: tool, displayName: tool },
    confirmationDetails: { title: 'May it run?', onConfirm: () => undefined, ...details },
  } as unknown as WaitingToolCall;
}

const QUESTIONS: Array<{ what: string; call: WaitingToolCall; letters: string[] }> = [
  {
    what: 'an edit',
    call: callOf(
      {
        type: 'edit',
        fileName: 'a.txt',
        filePath: '/tmp/a.txt',
        fileDiff: '@@ -1 +1 @@\n-a\n+b\n',
        originalContent: 'a\n',
        newContent: 'b\n',
        isModifiable: true,
      },
      'write_file',
    ),
    letters: ['y', 'a', 'e', 'n'],
  },
  {
    what: 'a command',
    call: callOf(
      { type: 'exec', command: 'rm -rf build', rootCommands: ['rm'] },
      'run_shell_command',
    ),
    letters: ['y', 'a', 'n'],
  },
  {
    what: 'an MCP tool',
    call: callOf(
      { type: 'mcp', serverName: 'srv', toolName: 'drop', toolDisplayName: 'drop' },
      'drop',
    ),
    letters: ['y', 'a', 's', 'n'],
  },
  {
    what: 'a fetch',
    call: callOf({ type: 'info', prompt: 'Fetch it?', urls: ['https://example.com'] }, 'web_fetch'),
    letters: ['y', 'a', 'n'],
  },
  {
    what: 'a plan',
    call: callOf({ type: 'plan', plan: '1. do it' }, 'exit_plan_mode'),
    letters: ['y', 'a', 'n'],
  },
];

describe('approval questions read a burst key by key', () => {
  for (const { what, call, letters } of QUESTIONS) {
    it(`${what}: 60 random bursts answer as the model says, once`, async () => {
      const next = generator(0x5eed + letters.length + what.length);
      const weights = [...KEYS, ...letters.map((c) => ({ name: c, raw: c }))];
      const outcomes = letters.map((_, index) => outcomeAt(call, index));
      for (let run = 0; run < 60; run++) {
        const keys = randomKeys(next, weights);
        const answers: Array<ConfirmationDecision | 'escape'> = [];
        const app = render(
          <ApprovalDialog
            call={call}
            isActive
            onAnswer={(decision) => answers.push(decision)}
            onEscape={() => answers.push('escape')}
          />,
        );
        await tick();
        app.stdin.write(keys.map((key) => key.raw).join(''));
        for (let i = 0; i < 5; i++) await tick();
        app.unmount();
        const expected = modelAnswer(keys, letters);
        const named = `keys ${keys.map((key) => key.name).join(' ')} (run ${run})`;
        if (expected === undefined) expect(answers, named).toEqual([]);
        else if (expected === 'escape') expect(answers, named).toEqual(['escape']);
        else {
          expect(answers, named).toHaveLength(1);
          const outcome = (answers[0] as ConfirmationDecision).outcome;
          expect(outcome, named).toBe(outcomes[expected]);
        }
      }
    });
  }
});

/** The outcome of the answer at `index`, as the dialog offers it (typed slowly, by number). */
function outcomeAt(call: WaitingToolCall, index: number): string {
  const answers: ConfirmationDecision[] = [];
  const app = render(
    <ApprovalDialog
      call={call}
      isActive
      onAnswer={(decision) => answers.push(decision)}
      onEscape={() => undefined}
    />,
  );
  const rows = (app.lastFrame() ?? '').match(/\d\. [^\n]*\((\w)\)/g) ?? [];
  app.unmount();
  const key = /\((\w)\)$/.exec(rows[index] ?? '')?.[1];
  const byKey: Record<string, string> = {
    y: 'proceed_once',
    a: call.confirmationDetails.type === 'mcp' ? 'proceed_always_tool' : 'proceed_always',
    s: 'proceed_always_server',
    e: 'modify_with_editor',
    n: 'cancel',
  };
  return byKey[key ?? ''] ?? `no answer at ${index}`;
}

describe("a server's page to visit reads a burst key by key", () => {
  it('60 random bursts answer as the model says, once', async () => {
    const next = generator(0x1234);
    // No browser opener (no display): the answers are "I will open it myself" and "No".
    const display = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    onTestFinished(() => {
      for (const [name, value] of Object.entries(display))
        if (value !== undefined) process.env[name] = value;
    });
    const letters = ['y', 'n'];
    const weights = [...KEYS, ...letters.map((c) => ({ name: c, raw: c }))];
    for (let run = 0; run < 60; run++) {
      const keys = randomKeys(next, weights);
      const answers: ConfirmationDecision[] = [];
      const app = render(
        <PageVisitDialog
          details={{
            type: 'elicitation_url',
            title: 'Visit a page',
            serverName: 'srv',
            message: 'Sign in',
            url: 'https://login.example.com/start',
            host: 'login.example.com',
            onConfirm: () => undefined,
          }}
          isActive
          onAnswer={(decision) => answers.push(decision)}
        />,
      );
      await tick();
      app.stdin.write(keys.map((key) => key.raw).join(''));
      for (let i = 0; i < 3; i++) await tick();
      app.unmount();
      const expected = modelAnswer(keys, letters);
      const named = `keys ${keys.map((key) => key.name).join(' ')} (run ${run})`;
      const wanted =
        expected === undefined
          ? []
          : expected === 'escape'
            ? [{ outcome: 'cancel', payload: { dismissed: true } }]
            : [{ outcome: expected === 0 ? 'proceed_once' : 'cancel' }];
      expect(answers, named).toEqual(wanted);
    }
  });
});

describe('pickers read a burst key by key', () => {
  it('100 random bursts take the item the model marks, once', async () => {
    const next = generator(0xbeef);
    for (let run = 0; run < 100; run++) {
      const count = 1 + next(6);
      const start = next(count);
      const items = Array.from({ length: count }, (_, i) => ({
        value: `v${i}`,
        label: `item ${i}`,
      }));
      const keys = randomKeys(next, KEYS);
      const answers: Array<string | undefined> = [];
      const app = render(
        <PickerDialog
          picker={{ id: 1, title: 'Pick', items, selected: start, resolve: () => undefined }}
          onAnswer={(value) => answers.push(value)}
        />,
      );
      await tick();
      app.stdin.write(keys.map((key) => key.raw).join(''));
      for (let i = 0; i < 3; i++) await tick();
      app.unmount();
      let selected = start;
      let expected: string | undefined | 'none' = 'none';
      for (const key of keys) {
        if (key.name === 'escape') expected = undefined;
        else if (key.name === 'enter') expected = `v${selected}`;
        else if (key.name === 'up' || key.name === 'shift-tab')
          selected = (selected + count - 1) % count;
        else if (key.name === 'down' || key.name === 'tab') selected = (selected + 1) % count;
        if (expected !== 'none') break;
      }
      const named = `keys ${keys.map((key) => key.name).join(' ')} from ${start} of ${count}`;
      expect(answers, named).toEqual(expected === 'none' ? [] : [expected]);
    }
  });
});

const FORM_KEYS: Key[] = [
  ...KEYS.filter((key) => !/^[0-9]$/.test(key.name)),
  { name: 'left', raw: '\x1b[D' },
  { name: 'right', raw: '\x1b[C' },
  { name: 'space', raw: ' ' },
  { name: 'backspace', raw: '\x7f' },
  { name: 'b', raw: 'b' },
];

const FORM_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    ok: { type: 'boolean', title: 'Agree' },
    colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
  },
  required: ['name'],
};

/** What a form answers to `keys`, sent in one write or one key per write. */
async function formAnswers(keys: Key[], burst: boolean): Promise<unknown[]> {
  const answers: unknown[] = [];
  const app = render(
    <ElicitationForm
      details={{
        type: 'elicitation',
        title: 'A form',
        serverName: 'srv',
        message: 'Fill it in',
        requestedSchema: FORM_SCHEMA,
        onConfirm: () => undefined,
      }}
      isActive
      onAnswer={(decision) => answers.push(decision)}
    />,
  );
  await tick();
  if (burst) app.stdin.write(keys.map((key) => key.raw).join(''));
  else
    for (const key of keys) {
      app.stdin.write(key.raw);
      await tick();
    }
  for (let i = 0; i < 3; i++) await tick();
  app.unmount();
  return answers;
}

describe("a server's form reads a burst key by key", () => {
  it('100 random bursts end as the same keys typed one at a time, answered at most once', async () => {
    const next = generator(0xf0f0);
    for (let run = 0; run < 100; run++) {
      const keys = randomKeys(next, FORM_KEYS);
      const named = `keys ${keys.map((key) => key.name).join(' ')} (run ${run})`;
      const slow = await formAnswers(keys, false);
      expect(slow.length, named).toBeLessThanOrEqual(1);
      expect(await formAnswers(keys, true), named).toEqual(slow);
    }
  });
});
