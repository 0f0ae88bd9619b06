import type {
  ConfirmationDecision,
  ToolCallConfirmationDetails,
  WaitingToolCall,
} from '@toolhost/core/tools';
import { visibleConfirmation } from '@toolhost/core/utils';
import { Box, Text } from 'ink';
import { choicesFor, decisionFor, type SaveTargets } from '../../approval-choices.js';
import { useChoiceKeys } from '../input/use-question-keys.js';
import { useUi } from '../ui-context.js';
import { ChoiceRows } from './choice-rows.js';
import { DiffLines } from './diff-view.js';
import { ElicitationForm } from './elicitation-form.js';
import { MarkdownText } from './markdown-text.js';
import { PageVisitDialog } from './page-visit-dialog.js';
import { QuestionBox } from './question-box.js';

/** Lines of a diff shown in the question (the rest is summarised). */
const DIFF_LINES_IN_QUESTION = 40;

export interface ApprovalDialogProps {
  call: WaitingToolCall;
  onAnswer(decision: ConfirmationDecision): void;
  /** Esc: the answer is no, and the turn stops. */
  onEscape(): void;
  isActive: boolean;
  /** Where an "always" answer may save its rule; without it, none is offered. */
  saving?: SaveTargets;
  /** A line for the person after the answer (where a rule was saved, or why not). */
  onNotice?(text: string): void;
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
function ChoiceDialog({
  call,
  onAnswer,
  onEscape,
  isActive,
  saving,
  onNotice,
}: ApprovalDialogProps) {
  const { theme } = useUi();
  const choices = choicesFor(call, { saving });
  const { state, armed } = useChoiceKeys({
    isActive,
    letters: choices.map((choice) => choice.key),
    onChoice: (index) => {
      const choice = index === undefined ? undefined : choices[index];
      if (!choice) return onEscape();
      void decisionFor(choice).then(({ decision, notice }) => {
        if (notice) onNotice?.(notice);
        onAnswer(decision);
      });
    },
  });
  // What is shown: every string of the call made visible; the call itself runs as it is.
  const details = visibleConfirmation(call.confirmationDetails);
  return (
    <QuestionBox title={details.title} armed={armed}>
      <DetailsView details={details} />
      <ChoiceRows
        rows={choices.map((choice) => ({ key: choice.key, label: choice.label }))}
        selected={state.selected}
      />
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
