import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { useUi } from '../ui-context.js';

export interface PromptInputProps {
  onSubmit(text: string): void;
  /** Tells the app what the prompt holds (Ctrl+D quits only when it is empty). */
  onChange?(text: string): void;
  isActive: boolean;
  placeholder?: string;
}

/**
 * A minimal one-line prompt: typed text, Backspace, Enter to send. The input engineer's
 * editor (ui/input) replaces it.
 */
export function PromptInput({ onSubmit, onChange, isActive, placeholder }: PromptInputProps) {
  const { theme } = useUi();
  const [text, setText] = useState('');
  // Several keys may arrive in one event (typed fast, or text then Enter): read them in order.
  const buffer = useRef('');
  const change = (next: string) => {
    buffer.current = next;
    setText(next);
    onChange?.(next);
  };
  useInput(
    (input, key) => {
      if (key.backspace || key.delete) return change(buffer.current.slice(0, -1));
      if (key.ctrl || key.meta || key.escape || key.tab || key.upArrow || key.downArrow) return;
      if (key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return;
      const typed = key.return ? '\r' : input;
      for (const char of typed) {
        if (char === '\r' || char === '\n') {
          const line = buffer.current.trim();
          change('');
          if (line) onSubmit(line);
        } else {
          change(buffer.current + char);
        }
      }
    },
    { isActive },
  );
  return (
    <Box borderStyle="round" borderColor={theme.muted} paddingX={1}>
      <Text color={theme.accent}>{'> '}</Text>
      {text ? (
        <Text>
          {text}
          <Text inverse> </Text>
        </Text>
      ) : (
        <Text color={theme.muted}>
          <Text inverse> </Text>
          {placeholder ?? ''}
        </Text>
      )}
    </Box>
  );
}
