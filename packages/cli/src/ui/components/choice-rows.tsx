import { Box, Text } from 'ink';
import { useUi } from '../ui-context.js';

/**
 * A question's answers, numbered, each with its key; the marked one in the accent colour
 * with `›`, and in words for a screen reader (plain mode draws no marks or colours).
 */
export function ChoiceRows({
  rows,
  selected,
}: {
  rows: ReadonlyArray<{ key: string; label: string }>;
  selected: number;
}) {
  const { theme, plain } = useUi();
  return (
    <Box flexDirection="column" marginTop={1}>
      {rows.map((row, index) => {
        const isSelected = index === selected;
        return (
          <Text key={row.key} color={isSelected ? theme.accent : undefined}>
            {isSelected && !plain ? '› ' : '  '}
            {index + 1}. {row.label} <Text color={theme.muted}>({row.key})</Text>
            {isSelected && plain ? ' (selected)' : ''}
          </Text>
        );
      })}
    </Box>
  );
}
