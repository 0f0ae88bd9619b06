import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { lastLines } from '../format.js';
import { renderMarkdown } from '../markdown-render.js';
import type { LiveState } from '../screen-store.js';
import { useUi } from '../ui-context.js';
import { Spinner } from './spinner.js';
import { ToolRowsView } from './tool-rows-view.js';

/** Lines the live part keeps free for the prompt, the status line and the approval keys. */
const RESERVED_ROWS = 10;
const THINKING_LINES = 3;

/** What the current turn shows while it runs; redrawn, so kept short. */
export function LiveTurn({ live }: { live: LiveState }) {
  const { theme, width, height, plain } = useUi();
  const answerLines = Math.max(3, height - RESERVED_ROWS - live.tools.length * 2);
  const answer = useMemo(() => {
    if (!live.streaming.trim() || plain) return undefined;
    return lastLines(renderMarkdown(live.streaming, width - 1), answerLines);
  }, [live.streaming, width, answerLines, plain]);
  const thinking = live.thinking.trim() ? lastLines(live.thinking, THINKING_LINES) : undefined;
  return (
    <Box flexDirection="column">
      {thinking && !plain ? (
        <Box marginTop={1} flexDirection="column">
          <Text color={theme.muted} italic dimColor={theme.enabled} wrap="truncate-end">
            {thinking.lines.join('\n')}
          </Text>
        </Box>
      ) : null}
      {answer ? (
        <Box marginTop={1} flexDirection="column">
          {answer.hidden > 0 ? <Text color={theme.muted}>…</Text> : null}
          <Text>{answer.lines.join('\n')}</Text>
        </Box>
      ) : null}
      {live.tools.length > 0 ? (
        <Box marginTop={1}>
          <ToolRowsView rows={live.tools} />
        </Box>
      ) : null}
      {live.busy && live.turnStartedAt !== undefined && !live.approval ? (
        <Box marginTop={1}>
          {plain ? (
            <Text>Working. Esc cancels.</Text>
          ) : (
            <Text color={theme.muted}>
              <Spinner since={live.turnStartedAt} /> {live.thinking ? 'Thinking' : 'Working'} · Esc
              cancels{live.queuedPrompts > 0 ? ` · ${live.queuedPrompts} queued` : ''}
            </Text>
          )}
        </Box>
      ) : null}
    </Box>
  );
}
