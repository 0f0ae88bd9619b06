import { Box, Text } from 'ink';
import { formatDuration, lastLines } from '../format.js';
import type { ToolRow } from '../history-items.js';
import { rowLabel } from '../tool-rows.js';
import { useUi } from '../ui-context.js';
import { FileDiffView } from './diff-view.js';
import { Spinner } from './spinner.js';
import { TodoList } from './todo-list.js';

/** Lines of a running command's output kept on screen (the box never grows past this). */
const LIVE_OUTPUT_LINES = 8;
/** Lines of a finished call's text result shown under it. */
const RESULT_LINES = 6;

export function ToolRowsView({ rows, depth = 0 }: { rows: readonly ToolRow[]; depth?: number }) {
  return (
    <Box flexDirection="column">
      {rows.map((row) => (
        <ToolRowView key={row.callId} row={row} depth={depth} />
      ))}
    </Box>
  );
}

function StatusMark({ row }: { row: ToolRow }) {
  const { theme, plain } = useUi();
  switch (row.status) {
    case 'executing':
      return <Spinner since={row.startedAt} />;
    case 'pending':
      return <Text color={theme.muted}>{plain ? 'waiting' : '○'}</Text>;
    case 'awaiting_approval':
      return <Text color={theme.warning}>{plain ? 'needs approval' : '?'}</Text>;
    case 'success':
      return <Text color={theme.success}>{plain ? 'done' : '✓'}</Text>;
    case 'error':
      return <Text color={theme.error}>{plain ? 'failed' : '✗'}</Text>;
    case 'cancelled':
      return <Text color={theme.warning}>{plain ? 'cancelled' : '-'}</Text>;
  }
}

function ToolRowView({ row, depth }: { row: ToolRow; depth: number }) {
  const { theme, plain } = useUi();
  const finished = row.status === 'success' || row.status === 'error' || row.status === 'cancelled';
  const label = rowLabel(row.name, row.toolName, row.description);
  return (
    <Box flexDirection="column" marginLeft={depth * 2}>
      <Text wrap="truncate-end">
        <StatusMark row={row} /> <Text bold>{label.head}</Text>
        {label.rest ? <Text> {label.rest}</Text> : null}
        {finished && row.durationMs !== undefined && row.durationMs >= 1000 ? (
          <Text color={theme.muted}> ({formatDuration(row.durationMs)})</Text>
        ) : null}
      </Text>
      {row.failure && row.status !== 'success' ? (
        <Box marginLeft={2}>
          <Text color={row.status === 'error' ? theme.error : theme.warning}>{row.failure}</Text>
        </Box>
      ) : null}
      {row.status === 'executing' && row.liveOutput && row.toolName !== 'task' ? (
        <LiveOutput output={row.liveOutput} />
      ) : null}
      {row.status === 'executing' && row.liveOutput && row.toolName === 'task' && !row.children ? (
        <Box marginLeft={2}>
          <Text color={theme.muted}>{lastLines(row.liveOutput, 4).lines.join('\n')}</Text>
        </Box>
      ) : null}
      {row.children ? <ToolRowsView rows={row.children} depth={1} /> : null}
      {finished && row.status !== 'success' && row.partialOutput && row.toolName !== 'task' ? (
        <Box marginLeft={plain ? 0 : 2}>
          <TextTail text={row.partialOutput} />
        </Box>
      ) : null}
      {row.status === 'success' && row.display !== undefined && !plain ? (
        <Box marginLeft={2}>
          <ResultView row={row} />
        </Box>
      ) : null}
      {row.status === 'success' && row.display !== undefined && plain ? (
        <ResultView row={row} />
      ) : null}
    </Box>
  );
}

/** A running command's output: the last lines in a box of fixed height. */
function LiveOutput({ output }: { output: string }) {
  const { theme, plain } = useUi();
  const { lines, hidden } = lastLines(output, LIVE_OUTPUT_LINES);
  if (plain) return <Text>{lines.join('\n')}</Text>;
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={theme.muted}
      marginLeft={2}
      paddingX={1}
    >
      {hidden > 0 ? <Text color={theme.muted}>… {hidden} earlier lines</Text> : null}
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: output lines repeat; their position is their identity
        <Text key={index} wrap="truncate-end">
          {line || ' '}
        </Text>
      ))}
    </Box>
  );
}

/** The last lines of a text result, with how many came before. */
function TextTail({ text }: { text: string }) {
  const { theme } = useUi();
  if (!text.trim()) return null;
  const { lines, hidden } = lastLines(text, RESULT_LINES);
  return (
    <Box flexDirection="column">
      {hidden > 0 ? <Text color={theme.muted}>… {hidden} lines above</Text> : null}
      <Text color={theme.muted}>{lines.join('\n')}</Text>
    </Box>
  );
}

function ResultView({ row }: { row: ToolRow }) {
  const display = row.display;
  if (display === undefined) return null;
  if (typeof display === 'string') return <TextTail text={display} />;
  if ('fileDiff' in display) return <FileDiffView diff={display} />;
  return <TodoList todos={display.todos} />;
}
