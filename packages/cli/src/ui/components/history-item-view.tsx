import { visibleText } from '@toolhost/core/utils';
import { Box, Text } from 'ink';
import { formatDuration } from '../format.js';
import type { HistoryItem } from '../history-items.js';
import { useUi } from '../ui-context.js';
import { wrapText } from '../wrap-text.js';
import { MarkdownText } from './markdown-text.js';
import { ToolRowsView } from './tool-rows-view.js';

/** One finished item of the history (printed once, then part of the scrollback). */
export function HistoryItemView({ item }: { item: HistoryItem }) {
  const { theme, width } = useUi();
  switch (item.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Box flexShrink={0} width={2}>
            <Text color={theme.accent} bold>
              {'> '}
            </Text>
          </Box>
          <Text bold>
            {wrapText(visibleText(item.text, { multiline: true }), width - 2).join('\n')}
          </Text>
        </Box>
      );
    case 'assistant':
      return (
        <Box marginTop={1}>
          <MarkdownText text={item.text} />
        </Box>
      );
    case 'thinking':
      return <ThinkingView text={item.text} durationMs={item.durationMs} />;
    case 'tools':
      return (
        <Box marginTop={1}>
          <ToolRowsView rows={item.rows} />
        </Box>
      );
    case 'message': {
      const color =
        item.level === 'error'
          ? theme.error
          : item.level === 'warning'
            ? theme.warning
            : theme.muted;
      const mark = item.level === 'error' ? '✗ ' : item.level === 'warning' ? '! ' : '';
      return (
        <Box marginTop={1}>
          <Text color={color}>
            {wrapText(`${mark}${visibleText(item.text, { multiline: true })}`, width).join('\n')}
          </Text>
        </Box>
      );
    }
    case 'element':
      return <Box marginTop={1}>{item.element}</Box>;
    case 'welcome':
      return <Welcome model={item.model} folder={item.folder} resumed={item.resumed} />;
  }
}

function ThinkingView({ text, durationMs }: { text: string; durationMs: number }) {
  const { theme, showThinking, plain } = useUi();
  if (showThinking || plain) {
    return (
      <Box marginTop={1} flexDirection="column">
        <Text color={theme.muted} italic>
          Thinking:
        </Text>
        <Text color={theme.muted} dimColor={theme.enabled}>
          {visibleText(text, { multiline: true })}
        </Text>
      </Box>
    );
  }
  return (
    <Box marginTop={1}>
      <Text color={theme.muted} italic>
        ✻ Thought for {formatDuration(durationMs)} (Ctrl+O shows thinking)
      </Text>
    </Box>
  );
}

function Welcome({ model, folder, resumed }: { model: string; folder: string; resumed: number }) {
  const { theme, plain, width } = useUi();
  return (
    <Box
      flexDirection="column"
      // As wide as the prompt's box below it, whatever its words' wrapping leaves.
      {...(plain ? {} : { width })}
      borderStyle={plain ? undefined : 'round'}
      borderColor={theme.accent}
      paddingX={plain ? 0 : 1}
    >
      <Text>
        <Text bold color={theme.accent}>
          toolhost
        </Text>{' '}
        <Text color={theme.muted}>
          {model} · {folder}
        </Text>
      </Text>
      {resumed > 0 ? (
        <Text color={theme.muted}>Resumed a session of {resumed} messages; it is shown below.</Text>
      ) : null}
      <Text color={theme.muted}>
        Enter sends · Esc cancels a turn · Shift+Tab changes the approval mode · Ctrl+C twice or
        Ctrl+D quits · /help lists commands
      </Text>
    </Box>
  );
}
