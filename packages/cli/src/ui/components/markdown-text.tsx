import { Text } from 'ink';
import { useMemo } from 'react';
import { renderMarkdown } from '../markdown-render.js';
import { useUi } from '../ui-context.js';

/** Markdown rendered for the terminal at the current width (plain text for screen readers). */
export function MarkdownText({ text, indent = 0 }: { text: string; indent?: number }) {
  const { width, plain } = useUi();
  const rendered = useMemo(
    () => (plain ? text : renderMarkdown(text, width - indent - 1)),
    [text, width, indent, plain],
  );
  return <Text>{rendered}</Text>;
}
