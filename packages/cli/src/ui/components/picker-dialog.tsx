/**
 * A list to choose from in place of the prompt (`/resume`'s sessions, `/theme`'s themes):
 * ↑/↓ move, Enter takes the marked item, Esc closes without a choice. Only the rows around
 * the marked one are drawn, so a long list keeps the screen's height.
 */
import { visibleText } from '@toolhost/core/utils';
import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import type { PendingPick } from '../session-store.js';
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
  const [selected, setSelected] = useState(picker.selected);
  const count = picker.items.length;
  useInput((input, key) => {
    if (key.upArrow || (key.ctrl && input === 'p')) setSelected((at) => (at - 1 + count) % count);
    else if (key.downArrow || (key.ctrl && input === 'n')) setSelected((at) => (at + 1) % count);
    else if (key.return) onAnswer(picker.items[selected]?.value);
    else if (key.escape) onAnswer(undefined);
  });
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
              {`${marked ? '› ' : '  '}${visibleText(item.label).padEnd(labelWidth)}`}
            </Text>
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
