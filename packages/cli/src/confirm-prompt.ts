/** Asks the person in the terminal whether a call may run. */
import { createInterface } from 'node:readline/promises';
import {
  type ConfirmationDecision,
  ToolConfirmationOutcome,
  type WaitingToolCall,
} from '@toolhost/core';
import { renderConfirmation, type Style } from './render.js';

interface Choice {
  label: string;
  outcome: ToolConfirmationOutcome;
}

export function choicesFor(call: WaitingToolCall): Choice[] {
  const details = call.confirmationDetails;
  const choices: Choice[] = [
    { label: 'Yes, this once', outcome: ToolConfirmationOutcome.ProceedOnce },
  ];
  switch (details.type) {
    case 'mcp':
      choices.push(
        {
          label: `Yes, and always allow ${details.toolName} this session`,
          outcome: ToolConfirmationOutcome.ProceedAlwaysTool,
        },
        {
          label: `Yes, and always allow every tool of ${details.serverName} this session`,
          outcome: ToolConfirmationOutcome.ProceedAlwaysServer,
        },
      );
      break;
    case 'exec':
      choices.push({
        label: `Yes, and always allow ${details.rootCommands.join(', ') || 'these commands'} this session`,
        outcome: ToolConfirmationOutcome.ProceedAlways,
      });
      break;
    case 'plan':
      choices[0] = {
        label: 'Yes, leave plan mode and ask before each change',
        outcome: ToolConfirmationOutcome.ProceedOnce,
      };
      choices.push({
        label: 'Yes, leave plan mode and approve edits automatically',
        outcome: ToolConfirmationOutcome.ProceedAlways,
      });
      break;
    default:
      choices.push({
        label: `Yes, and always allow ${call.tool.name} this session`,
        outcome: ToolConfirmationOutcome.ProceedAlways,
      });
  }
  if (details.type === 'edit' && details.isModifiable) {
    choices.push({
      label: 'Change it in my editor first',
      outcome: ToolConfirmationOutcome.ModifyWithEditor,
    });
  }
  choices.push({ label: 'No', outcome: ToolConfirmationOutcome.Cancel });
  return choices;
}

export async function askInTerminal(
  call: WaitingToolCall,
  style: Style,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<ConfirmationDecision> {
  const choices = choicesFor(call);
  output.write(`\n${renderConfirmation(call.confirmationDetails, style)}\n\n`);
  choices.forEach((choice, index) => {
    output.write(`  ${index + 1}. ${choice.label}\n`);
  });
  const rl = createInterface({ input, output, terminal: false });
  try {
    for (;;) {
      output.write(`Choose 1-${choices.length}: `);
      const answer = await nextLine(rl);
      if (answer === null) return { outcome: ToolConfirmationOutcome.Cancel };
      const picked = choices[Number.parseInt(answer.trim(), 10) - 1];
      if (picked) return { outcome: picked.outcome };
      output.write(`Please type a number from 1 to ${choices.length}.\n`);
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
