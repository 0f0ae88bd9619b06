import { elicitationFields } from '@toolhost/core/mcp';
import type {
  ConfirmationDecision,
  ToolElicitationConfirmationDetails,
} from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import { Box, Text } from 'ink';
import {
  type FieldValue,
  type FormKeyState,
  formKey,
  initialForm,
  isOnDecline,
  isOnSubmit,
} from '../elicitation-form-state.js';
import { useQuestionKeys } from '../input/use-question-keys.js';
import { useUi } from '../ui-context.js';
import { QuestionBox } from './question-box.js';

export interface ElicitationFormProps {
  details: ToolElicitationConfirmationDetails;
  onAnswer(decision: ConfirmationDecision): void;
  isActive: boolean;
}

/**
 * An MCP server's question as a small form: a row per field (required ones starred,
 * defaults filled in), checked before it is sent. Submit accepts, Decline says no, Esc
 * dismisses it (the server hears "cancel").
 */
export function ElicitationForm({ details, onAnswer, isActive }: ElicitationFormProps) {
  const { theme, plain } = useUi();
  const { state, armed } = useQuestionKeys<FormKeyState>({
    isActive,
    initial: () => ({ form: initialForm(elicitationFields(details.requestedSchema)) }),
    guardTypeahead: true,
    acceptPaste: true,
    step: (at, key) => formKey(at, key, details.requestedSchema),
    isDone: (at) => at.answer !== undefined,
    onDone: (at) => {
      if (at.answer) onAnswer(at.answer);
    },
  });
  const { form } = state;
  const focused = form.fields[form.focus];
  const width = Math.max(...form.fields.map((field) => field.title.length + 2), 8);
  const button = (label: string, on: boolean) => (
    <Text color={on ? theme.accent : undefined} inverse={on && !plain}>
      {on && plain ? `> ${label}` : ` ${label} `}
    </Text>
  );
  return (
    <QuestionBox title={visibleText(details.title)} armed={armed}>
      <Text>{visibleText(details.message, { multiline: true })}</Text>
      <Box flexDirection="column" marginTop={1}>
        {form.fields.map((field, index) => {
          const on = index === form.focus;
          const error = form.errors.fields.get(index);
          return (
            <Text key={field.name} color={on ? theme.accent : undefined}>
              {on ? '› ' : '  '}
              {`${field.title}${field.required ? ' *' : ''}`.padEnd(width)}{' '}
              <FieldView value={form.values[index]} field={field} focused={on} />
              {error ? <Text color={theme.error}> ({error})</Text> : null}
            </Text>
          );
        })}
      </Box>
      <Box marginTop={1} gap={2}>
        {button('Submit', isOnSubmit(form))}
        {button('Decline', isOnDecline(form))}
      </Box>
      {form.errors.form ? <Text color={theme.error}>{form.errors.form}</Text> : null}
      {focused?.description ? <Text color={theme.muted}>{focused.description}</Text> : null}
      <Text color={theme.muted}>
        * required. Tab/↑↓ move, ←→ choose, Space ticks, Enter on Submit sends, Esc cancels.
      </Text>
    </QuestionBox>
  );
}

function FieldView({
  value,
  field,
  focused,
}: {
  value: FieldValue | undefined;
  field: { choices?: { label: string }[] };
  focused: boolean;
}) {
  const { theme } = useUi();
  switch (value?.kind) {
    case 'text':
      return (
        <Text>
          {visibleText(value.text)}
          {focused ? <Text inverse> </Text> : value.text ? '' : <Text color={theme.muted}>…</Text>}
        </Text>
      );
    case 'boolean':
      return <Text>{value.value ? '[x] yes' : value.value === false ? '[ ] no' : '[ ]'}</Text>;
    case 'choice': {
      const label = field.choices?.[value.index]?.label;
      return <Text>{label ? `‹ ${label} ›` : '‹ choose with ←→ ›'}</Text>;
    }
    case 'choices':
      return (
        <Text>
          {(field.choices ?? []).map((choice, i) => (
            <Text key={choice.label} underline={focused && i === value.cursor}>
              {value.picked.includes(i) ? '[x]' : '[ ]'} {choice.label}
              {'  '}
            </Text>
          ))}
        </Text>
      );
    default:
      return null;
  }
}
