import type { FileDiff } from '@toolhost/core/tools';
import { Box, Text } from 'ink';
import { useUi } from '../ui-context.js';
import { numberDiffLines } from './diff-numbers.js';

/** How many diff lines are shown before the rest is summarised. */
const MAX_DIFF_LINES = 200;

/**
 * A unified diff, coloured (added green, removed red, hunk headers cyan), each line with its
 * number in the file.
 */
export function DiffLines({
  unified,
  maxLines = MAX_DIFF_LINES,
}: {
  unified: string;
  maxLines?: number;
}) {
  const { theme } = useUi();
  // The file is named above the diff, so its ---/+++ header lines are left out; tabs are
  // expanded because the terminal would widen them past the width the layout counted.
  const lines = unified
    .replace(/\n$/, '')
    .split('\n')
    .filter(
      (line) =>
        !line.startsWith('Index:') &&
        !/^={5,}$/.test(line) &&
        !line.startsWith('--- ') &&
        !line.startsWith('+++ '),
    )
    .map((line) => line.replace(/\t/g, '    '));
  const shown = numberDiffLines(lines).slice(0, maxLines);
  const numberWidth = Math.max(0, ...shown.map((row) => row.number.length));
  return (
    <Box flexDirection="column">
      {shown.map(({ number, line }, index) => {
        const color = line.startsWith('+')
          ? theme.added
          : line.startsWith('-')
            ? theme.removed
            : line.startsWith('@@')
              ? theme.hunk
              : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff lines repeat; their position is their identity
          <Text key={index} wrap="truncate-end">
            {numberWidth > 0 ? (
              <Text color={theme.muted}>{`${number.padStart(numberWidth)} `}</Text>
            ) : null}
            <Text color={color}>{line || ' '}</Text>
          </Text>
        );
      })}
      {lines.length > shown.length ? (
        <Text color={theme.muted}>… {lines.length - shown.length} more lines</Text>
      ) : null}
    </Box>
  );
}

export function FileDiffView({ diff }: { diff: FileDiff }) {
  const { theme } = useUi();
  const { linesAdded, linesRemoved } = diff.diffStat;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{diff.fileName}</Text> <Text color={theme.added}>+{linesAdded}</Text>{' '}
        <Text color={theme.removed}>-{linesRemoved}</Text>
      </Text>
      <DiffLines unified={diff.fileDiff} />
    </Box>
  );
}
