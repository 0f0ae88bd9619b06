import type { ConfirmationDecision } from '@toolhost/core/tools';
import {
  ToolConfirmationOutcome,
  type ToolElicitationUrlConfirmationDetails,
} from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import { Box, Text } from 'ink';
import { useState } from 'react';
import { openInBrowser, systemOpener } from '../../browser.js';
import { useChoiceKeys } from '../input/use-question-keys.js';
import { useUi } from '../ui-context.js';
import { ChoiceRows } from './choice-rows.js';
import { QuestionBox } from './question-box.js';

export interface PageVisitDialogProps {
  details: ToolElicitationUrlConfirmationDetails;
  onAnswer(decision: ConfirmationDecision): void;
  isActive: boolean;
}

interface VisitChoice {
  key: string;
  label: string;
  decision: ConfirmationDecision;
  open?: boolean;
}

/**
 * An MCP server asks the person to visit a page: the server, its message, the whole link
 * and, apart, the host it leads to. Nothing is opened unless the person picks "open it"
 * (offered only where the system has an opener); Esc dismisses it (the server hears
 * "cancel") and the turn goes on.
 */
export function PageVisitDialog({ details, onAnswer, isActive }: PageVisitDialogProps) {
  const { theme } = useUi();
  const [opener] = useState(() => systemOpener());
  const choices: VisitChoice[] = [
    {
      key: 'y',
      label: 'I will open it myself',
      decision: { outcome: ToolConfirmationOutcome.ProceedOnce },
    },
    ...(opener
      ? [
          {
            key: 'o',
            label: 'Open it in my browser now',
            decision: { outcome: ToolConfirmationOutcome.ProceedOnce },
            open: true,
          },
        ]
      : []),
    { key: 'n', label: 'No', decision: { outcome: ToolConfirmationOutcome.Cancel } },
  ];
  const { state, armed } = useChoiceKeys({
    isActive,
    letters: choices.map((choice) => choice.key),
    onChoice: (index) => {
      const choice = index === undefined ? undefined : choices[index];
      if (!choice)
        return onAnswer({ outcome: ToolConfirmationOutcome.Cancel, payload: { dismissed: true } });
      if (choice.open) openInBrowser(details.url, opener);
      onAnswer(choice.decision);
    },
  });
  return (
    <QuestionBox title={visibleText(details.title)} armed={armed}>
      <Text>{visibleText(details.message, { multiline: true })}</Text>
      <Box flexDirection="column" marginTop={1}>
        <Text color={theme.accent}>{visibleText(details.url)}</Text>
        <Text>
          It leads to <Text bold>{visibleText(details.host)}</Text>. Check the host before you go;
          the model does not see this link.
        </Text>
      </Box>
      <ChoiceRows rows={choices} selected={state.selected} />
      <Text color={theme.muted}>Press a number or key; ↑↓ and Enter; Esc dismisses it.</Text>
    </QuestionBox>
  );
}
