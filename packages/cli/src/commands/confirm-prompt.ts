/** Asks the person in the terminal whether a call may run. */
import { createInterface } from 'node:readline/promises';
import { elicitationFields, parseFieldAnswer } from '@toolhost/core/mcp';
import type { ConfirmationDecision, WaitingToolCall } from '@toolhost/core/tools';
import {
  ToolConfirmationOutcome,
  type ToolElicitationConfirmationDetails,
  type ToolElicitationUrlConfirmationDetails,
} from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import { choicesFor, decisionFor, pickChoice, type SaveTargets } from '../approval-choices.js';
import { openInBrowser, systemOpener } from '../browser.js';
import { renderConfirmation, type Style } from '../render.js';

export async function askInTerminal(
  call: WaitingToolCall,
  style: Style,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: { oneShot?: boolean; saving?: SaveTargets } = {},
): Promise<ConfirmationDecision> {
  const choices = choicesFor(call, options);
  output.write(`\n${renderConfirmation(call.confirmationDetails, style)}\n\n`);
  choices.forEach((choice, index) => {
    output.write(`  ${index + 1}. ${choice.label} ${style.dim(`(${choice.key})`)}\n`);
  });
  const keys = choices.map((choice) => choice.key).join('/');
  const rl = createInterface({ input, output, terminal: false });
  try {
    for (;;) {
      output.write(`Choose 1-${choices.length} or ${keys}: `);
      const answer = await nextLine(rl);
      if (answer === null) return { outcome: ToolConfirmationOutcome.Cancel };
      const picked = pickChoice(choices, answer);
      if (picked) {
        const { decision, notice } = await decisionFor(picked);
        if (notice) output.write(`${notice}\n`);
        return decision;
      }
      output.write(`Please type a number from 1 to ${choices.length}, or one of ${keys}.\n`);
    }
  } finally {
    rl.close();
  }
}

/** The next line typed, or null at end of input. */
function nextLine(rl: ReturnType<typeof createInterface>): Promise<string | null> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      rl.off('close', onClose);
      resolve(line);
    };
    const onClose = () => {
      rl.off('line', onLine);
      resolve(null);
    };
    rl.once('line', onLine);
    rl.once('close', onClose);
  });
}

/**
 * Asks the person a server's questions (an elicitation form), one field at a time. An
 * empty answer keeps the default or leaves an optional field out; end of input declines.
 */
export async function askFormInTerminal(
  details: ToolElicitationConfirmationDetails,
  style: Style,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<ConfirmationDecision> {
  output.write(`\n${renderConfirmation(details, style)}\n`);
  output.write(
    style.dim('(press Enter to keep a default or skip an optional field; Ctrl+D declines)\n'),
  );
  const rl = createInterface({ input, output, terminal: false });
  try {
    const answers: Record<string, unknown> = {};
    for (const field of elicitationFields(details.requestedSchema)) {
      const choices = field.choices
        ? ` ${field.choices.map((choice, i) => `${i + 1}) ${choice.label}`).join('  ')}`
        : field.type === 'boolean'
          ? ' (yes/no)'
          : '';
      const fallback =
        field.default !== undefined ? ` [${visibleText(String(field.default))}]` : '';
      const mark = field.required ? '' : style.dim(' (optional)');
      if (field.description) output.write(`  ${style.dim(field.description)}\n`);
      for (;;) {
        output.write(`${field.title}${mark}${choices}${fallback}: `);
        const line = await nextLine(rl);
        if (line === null) return { outcome: ToolConfirmationOutcome.Cancel };
        const parsed = parseFieldAnswer(field, line);
        if (parsed === undefined) {
          if (field.required && field.default === undefined) {
            output.write('This one is required.\n');
            continue;
          }
          break;
        }
        if ('problem' in parsed) {
          output.write(`Please ${parsed.problem}.\n`);
          continue;
        }
        answers[field.name] = parsed.value;
        break;
      }
    }
    return { outcome: ToolConfirmationOutcome.ProceedOnce, payload: { answers } };
  } finally {
    rl.close();
  }
}

/**
 * Asks the person whether they will visit a server's page (elicitation, URL mode): `y` they
 * open it themselves, `o` toolhost opens it with the system's opener (offered only where
 * one exists), `n` or end of input declines. Nothing is opened unless they type `o`.
 */
export async function askVisitInTerminal(
  details: ToolElicitationUrlConfirmationDetails,
  style: Style,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opener: string | undefined = systemOpener(),
): Promise<ConfirmationDecision> {
  output.write(`\n${renderConfirmation(details, style)}\n`);
  const rl = createInterface({ input, output, terminal: false });
  try {
    for (;;) {
      output.write(
        opener
          ? 'Will you open it? y = yes, I will open it; o = open it in my browser now; n = no: '
          : 'Will you open it? y = yes, I will open it; n = no: ',
      );
      const line = await nextLine(rl);
      const answer = line?.trim().toLowerCase();
      if (answer === undefined || answer === 'n' || answer === 'no')
        return { outcome: ToolConfirmationOutcome.Cancel };
      if (answer === 'y' || answer === 'yes')
        return { outcome: ToolConfirmationOutcome.ProceedOnce };
      if (opener && answer === 'o') {
        openInBrowser(details.url, opener);
        return { outcome: ToolConfirmationOutcome.ProceedOnce };
      }
    }
  } finally {
    rl.close();
  }
}
