import type {
  ConfirmationDecision,
  WaitingToolCall,
} from '@toolhost/core/internal/core/tool-call-types.js';
import {
  type ToolCallConfirmationDetails,
  ToolConfirmationOutcome,
} from '@toolhost/core/internal/tools/tools.js';
import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { choicesFor } from '../../confirm-prompt.js';
import { useUi } from '../ui-context.js';
import { DiffLines } from './diff-view.js';
import { ElicitationForm } from './elicitation-form.js';
import { MarkdownText } from './markdown-text.js';
import { PageVisitDialog } from './page-visit-dialog.js';
import { QuestionBox } from './question-box.js';

/** The single key for each answer, the same whatever the order of the list. */
const KEYS: Record<ToolConfirmationOutcome, string> = {
  [ToolConfirmationOutcome.ProceedOnce]: 'y',
  [ToolConfirmationOutcome.ProceedAlways]: 'a',
  [ToolConfirmationOutcome.ProceedAlwaysTool]: 'a',
  [ToolConfirmationOutcome.ProceedAlwaysServer]: 's',
  [ToolConfirmationOutcome.ModifyWithEditor]: 'e',
  [ToolConfirmationOutcome.Cancel]: 'n',
};

/** Lines of a diff shown in the question (the rest is summarised). */
const DIFF_LINES_IN_QUESTION = 40;

export interface ApprovalDialogProps {
  call: WaitingToolCall;
  onAnswer(decision: ConfirmationDecision): void;
  /** Esc: the answer is no, and the turn stops. */
  onEscape(): void;
  isActive: boolean;
}

/** What the person is asked about a call: a server's form or page, or whether the call may run. */
export function ApprovalDialog(props: ApprovalDialogProps) {
  const details = props.call.confirmationDetails;
  if (details.type === 'elicitation')
    return (
      <ElicitationForm details={details} onAnswer={props.onAnswer} isActive={props.isActive} />
    );
  if (details.type === 'elicitation_url')
    return (
      <PageVisitDialog details={details} onAnswer={props.onAnswer} isActive={props.isActive} />
    );
  return <ChoiceDialog {...props} />;
}

/** Asks whether a call may run: what it will do, then the answers as single keys. */
function ChoiceDialog({ call, onAnswer, onEscape, isActive }: ApprovalDialogProps) {
  const { theme, plain } = useUi();
  const choices = choicesFor(call);
  const [selected, setSelected] = useState(0);
  useInput(
    (input, key) => {
      if (key.escape) return onEscape();
      if (key.upArrow) return setSelected((at) => (at + choices.length - 1) % choices.length);
      if (key.downArrow || key.tab) return setSelected((at) => (at + 1) % choices.length);
      if (key.return) {
        const choice = choices[selected];
        if (choice) onAnswer({ outcome: choice.outcome });
        return;
      }
      const byNumber = /^[1-9]$/.test(input) ? choices[Number(input) - 1] : undefined;
      const byKey = choices.find((choice) => KEYS[choice.outcome] === input.toLowerCase());
      const picked = byNumber ?? byKey;
      if (picked) onAnswer({ outcome: picked.outcome });
    },
    { isActive },
  );
  const details = call.confirmationDetails;
  return (
    <QuestionBox title={details.title}>
      <DetailsView details={details} />
      <Box flexDirection="column" marginTop={1}>
        {choices.map((choice, index) => {
          const isSelected = index === selected;
          return (
            <Text key={choice.outcome} color={isSelected ? theme.accent : undefined}>
              {isSelected && !plain ? '› ' : '  '}
              {index + 1}. {choice.label} <Text color={theme.muted}>({KEYS[choice.outcome]})</Text>
            </Text>
          );
        })}
      </Box>
      <Text color={theme.muted}>
        Press a number or key; ↑↓ and Enter; Esc says no and stops the turn.
      </Text>
    </QuestionBox>
  );
}

function DetailsView({ details }: { details: ToolCallConfirmationDetails }) {
  const { theme } = useUi();
  switch (details.type) {
    case 'edit':
      return <DiffLines unified={details.fileDiff} maxLines={DIFF_LINES_IN_QUESTION} />;
    case 'exec':
      return (
        <Box marginLeft={2}>
          <Text color={theme.accent}>{details.command}</Text>
        </Box>
      );
    case 'plan':
      return (
        <Box flexDirection="column" marginTop={1}>
          <MarkdownText text={details.plan} indent={4} />
        </Box>
      );
    case 'mcp':
      return (
        <Text>
          server {details.serverName}, tool {details.toolName}
          {details.annotations?.destructiveHint ? ' (the server says it may destroy data)' : ''}
        </Text>
      );
    case 'info':
      return (
        <Box flexDirection="column">
          <Text>{details.prompt}</Text>
          {(details.urls ?? []).map((url) => (
            <Text key={url} color={theme.accent}>
              {'  '}
              {url}
            </Text>
          ))}
        </Box>
      );
    case 'elicitation':
    case 'elicitation_url':
      // Asked by ElicitationForm and PageVisitDialog.
      return <Text>{details.message}</Text>;
  }
}
