import { Text } from 'ink';
import { useMemo } from 'react';
import { renderMarkdown } from '../markdown-render.js';
import { useUi } from '../ui-context.js';

/** Markdown rendered for the terminal at the current width (without colours for screen readers). */
export function MarkdownText({ text, indent = 0 }: { text: string; indent?: number }) {
  const { width } = useUi();
  const rendered = useMemo(() => renderMarkdown(text, width - indent - 1), [text, width, indent]);
  return <Text>{rendered}</Text>;
}
