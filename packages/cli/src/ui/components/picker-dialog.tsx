/**
 * A list to choose from in place of the prompt (`/resume`'s sessions, `/theme`'s themes):
 * ↑/↓ move, Enter takes the marked item, Esc closes without a choice. Only the rows around
 * the marked one are drawn, so a long list keeps the screen's height.
 */
import { visibleText } from '@toolhost/core/utils';
import { Box, Text } from 'ink';
import { type ChoiceState, choiceKey } from '../input/question-keys.js';
import { useQuestionKeys } from '../input/use-question-keys.js';
import type { PendingPick } from '../screen-store.js';
import { useUi } from '../ui-context.js';

const ROWS = 8;

export function PickerDialog({
  picker,
  onAnswer,
}: {
  picker: PendingPick;
  onAnswer: (value: string | undefined) => void;
}) {
  const { theme, plain, width } = useUi();
  const count = picker.items.length;
  // Opened by the person's own command: typeahead is theirs to give.
  const { state } = useQuestionKeys<ChoiceState>({
    isActive: true,
    initial: { selected: picker.selected },
    step: (at, key) => (key.name === 'text' && !key.ctrl ? at : choiceKey(at, key, { count })),
    isDone: (at) => at.answer !== undefined,
    onDone: (at) =>
      onAnswer(at.answer === 'escape' ? undefined : picker.items[at.answer?.index ?? -1]?.value),
  });
  const { selected } = state;
  const first = Math.max(0, Math.min(selected - Math.floor(ROWS / 2), count - ROWS));
  // Labels padded to one width, so the details start in one column.
  const labelWidth = Math.max(...picker.items.map((item) => visibleText(item.label).length));
  const shown = picker.items.slice(first, first + ROWS);
  return (
    <Box
      flexDirection="column"
      {...(plain ? {} : { borderStyle: 'round' as const, paddingX: 1, width })}
      borderColor={theme.accent}
    >
      <Text bold>{picker.title}</Text>
      {shown.map((item, index) => {
        const marked = first + index === selected;
        return (
          <Text key={item.value} wrap="truncate-end">
            <Text color={marked ? theme.accent : undefined} bold={marked}>
              {`${marked && !plain ? '› ' : '  '}${visibleText(item.label).padEnd(labelWidth)}`}
            </Text>
            {marked && plain ? ' (selected)' : ''}
            {item.detail ? (
              <Text color={theme.muted}>{`  ${visibleText(item.detail)}`}</Text>
            ) : null}
          </Text>
        );
      })}
      <Text color={theme.muted}>
        {`${count > ROWS ? `${selected + 1}/${count} · ` : ''}↑/↓ choose · Enter takes · Esc closes`}
      </Text>
    </Box>
  );
}
