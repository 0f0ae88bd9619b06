/**
 * The prompt as the app places it: the editor view on this session's input state (made
 * once per app), sending each line to the dispatcher. Esc stops a command that is waiting
 * (a /compress, an /agents create) when no turn is running.
 */
import { useEffect, useMemo, useRef } from 'react';
import type { AppServices } from '../app-services.js';
import { PromptEditorView } from './prompt-editor-view.js';
import { createPromptInputState } from './prompt-input-state.js';

export interface PromptAreaProps {
  services: AppServices;
  isActive: boolean;
  placeholder?: string;
  onChange?(text: string): void;
  /** Whether Esc is the editor's own now (vim insert mode), after each key. */
  onEscapeTaken?(taken: boolean): void;
  /** A line sent as soon as the prompt is shown (`-i "<prompt>"`), as if typed and sent. */
  firstLine?: string;
}

export function PromptArea({
  services,
  isActive,
  placeholder,
  onChange,
  onEscapeTaken,
  firstLine,
}: PromptAreaProps) {
  const state = useMemo(() => createPromptInputState(services), [services]);
  const sentFirst = useRef(false);
  useEffect(() => {
    if (sentFirst.current || firstLine === undefined || !firstLine.trim()) return;
    sentFirst.current = true;
    void state.submit(firstLine);
  }, [state, firstLine]);
  return (
    <PromptEditorView
      editor={state.editor}
      isActive={isActive}
      {...(placeholder !== undefined ? { placeholder } : {})}
      complete={state.complete}
      onSubmit={(line) => void state.submit(line)}
      {...(onChange ? { onChange } : {})}
      {...(onEscapeTaken ? { onEscapeTaken } : {})}
      onEscape={() => {
        if (state.cancelCommand()) services.print('Stopped.', 'warning');
      }}
    />
  );
}
