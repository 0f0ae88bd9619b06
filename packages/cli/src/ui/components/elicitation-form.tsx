import { elicitationFields } from '@toolhost/core/mcp';
import type { ConfirmationDecision } from '@toolhost/core/tools';
import {
  ToolConfirmationOutcome,
  type ToolElicitationConfirmationDetails,
} from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import { Box, Text, useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import {
  deleteBack,
  type FieldValue,
  type FormState,
  initialForm,
  isOnDecline,
  isOnSubmit,
  moveFocus,
  step,
  submit,
  toggle,
  typeText,
} from '../elicitation-form-state.js';
import { type EditorKey, KeyDecoder } from '../input/key-decoder.js';
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
  const [form, setForm] = useState<FormState>(() =>
    initialForm(elicitationFields(details.requestedSchema)),
  );
  // Keys that arrive together (a fast typist, a test) each act on the state the one before left.
  const current = useRef(form);
  const answered = useRef(false);
  useKeys(isActive, (key) => {
    if (answered.current) return;
    const state = current.current;
    const answer = (decision: ConfirmationDecision) => {
      answered.current = true;
      onAnswer(decision);
    };
    let next = state;
    if (key.name === 'escape')
      return answer({ outcome: ToolConfirmationOutcome.Cancel, payload: { dismissed: true } });
    if (key.name === 'return') {
      if (isOnDecline(state)) return answer({ outcome: ToolConfirmationOutcome.Cancel });
      if (!isOnSubmit(state)) next = moveFocus(state, 1);
      else {
        const outcome = submit(state, details.requestedSchema);
        if ('answers' in outcome)
          return answer({
            outcome: ToolConfirmationOutcome.ProceedOnce,
            payload: { answers: outcome.answers },
          });
        next = outcome.state;
      }
    } else if (key.name === 'up' || (key.name === 'tab' && key.shift)) next = moveFocus(state, -1);
    else if (key.name === 'down' || key.name === 'tab') next = moveFocus(state, 1);
    else if (key.name === 'left') next = step(state, -1);
    else if (key.name === 'right') next = step(state, 1);
    else if (key.name === 'backspace' || key.name === 'delete') next = deleteBack(state);
    else if (key.name === 'text' && key.text === ' ') next = toggle(state);
    else if ((key.name === 'text' || key.name === 'paste') && !key.ctrl && !key.meta)
      next = typeText(state, key.text);
    current.current = next;
    setForm(next);
  });
  const focused = form.fields[form.focus];
  const width = Math.max(...form.fields.map((field) => field.title.length + 2), 8);
  const button = (label: string, on: boolean) => (
    <Text color={on ? theme.accent : undefined} inverse={on && !plain}>
      {on && plain ? `> ${label}` : ` ${label} `}
    </Text>
  );
  return (
    <QuestionBox title={visibleText(details.title)}>
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

/** Every key the terminal sends, decoded one by one (Ink's parsed keys merge a fast burst). */
function useKeys(isActive: boolean, onKey: (key: EditorKey) => void): void {
  const { internal_eventEmitter: events } = useStdin() as ReturnType<typeof useStdin> & {
    internal_eventEmitter?: NodeJS.EventEmitter;
  };
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    if (!isActive || !events) return;
    const decoder = new KeyDecoder();
    const onInput = (sequence: string) => {
      for (const key of decoder.push(sequence)) latest.current(key);
    };
    events.on('input', onInput);
    return () => {
      events.off('input', onInput);
    };
  }, [isActive, events]);
}
