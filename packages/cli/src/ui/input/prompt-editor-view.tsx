/**
 * The prompt on screen: the editor's text with its cursor, the completion menu under it
 * and the Ctrl+R search line. It reads the terminal's raw key sequences (through Ink's
 * stdin events) so the KeyDecoder can tell keys apart, turns on bracketed paste while it
 * is shown, and asks for completions whenever the text changes.
 */
import { Box, Text, useStdin, useStdout } from 'ink';
import { type ReactElement, useEffect, useReducer, useRef } from 'react';
import { useUi } from '../ui-context.js';
import { columnsOf, wrapRanges } from '../wrap-text.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE, KeyDecoder } from './key-decoder.js';
import type { Completion, PromptEditor } from './prompt-editor.js';
import { setPromptSink } from './question-keys.js';

export type CompletionSource = (text: string, cursor: number) => Promise<Completion | undefined>;

export interface PromptEditorViewProps {
  editor: PromptEditor;
  isActive: boolean;
  placeholder?: string;
  complete: CompletionSource;
  onSubmit(text: string): void;
  /** Called after every change of the text (the app's Ctrl+D and Ctrl+C look at it). */
  onChange?(text: string): void;
  /**
   * Whether Esc is the editor's own now (vim's insert mode leaves for normal mode with it),
   * told after every key: the app's Esc then does not stop the turn.
   */
  onEscapeTaken?(taken: boolean): void;
  /** Esc with no menu or search open (the app may be waiting on a command to stop). */
  onEscape?(): void;
}

const MENU_ROWS = 8;

export function PromptEditorView(props: PromptEditorViewProps) {
  const { editor, isActive } = props;
  const { theme, width, plain } = useUi();
  const [, render] = useReducer((count: number) => count + 1, 0);
  const decoder = useRef(new KeyDecoder());
  const latest = useRef(props);
  latest.current = props;
  const completionRequest = useRef(0);
  const { internal_eventEmitter: events } = useStdin() as ReturnType<typeof useStdin> & {
    internal_eventEmitter?: NodeJS.EventEmitter;
  };
  const { stdout } = useStdout();

  useBracketedPaste(stdout, isActive);

  useEffect(
    () =>
      editor.onExternalChange(() => {
        render();
        queueMicrotask(() => latest.current.onChange?.(editor.text));
      }),
    [editor],
  );

  // While a question is shown, what it does not take as an answer (typeahead, a paste)
  // lands here: text for the prompt.
  useEffect(
    () =>
      setPromptSink((key) => {
        if (key.name !== 'paste' && editor.vim && editor.vim.mode !== 'insert') return;
        const before = editor.buffer;
        editor.handle(key);
        render();
        if (editor.buffer !== before) queueMicrotask(() => latest.current.onChange?.(editor.text));
      }),
    [editor],
  );

  useEffect(() => {
    if (!isActive || !events) return;
    const refreshCompletion = () => {
      const request = ++completionRequest.current;
      const { text, cursor } = editor.buffer;
      if (editor.search) return;
      void latest.current
        .complete(text, cursor)
        .catch(() => undefined)
        .then((completion) => {
          // Only for the text it was asked for: a slower answer must not replace a newer one.
          if (request !== completionRequest.current) return;
          if (editor.buffer.text !== text || editor.buffer.cursor !== cursor) return;
          editor.setCompletion(completion);
          render();
        });
    };
    const onInput = (sequence: string) => {
      const before = editor.buffer;
      let submitted: string | undefined;
      for (const key of decoder.current.push(sequence)) {
        const outcome = editor.handle(key);
        if (outcome.type === 'submit') submitted = outcome.text;
        if (outcome.type === 'ignored' && key.name === 'escape') latest.current.onEscape?.();
      }
      render();
      // As onChange: after the app's own listener has judged this key by the mode before it.
      queueMicrotask(() => latest.current.onEscapeTaken?.(editor.vim?.mode === 'insert'));
      if (editor.buffer !== before) {
        // After every listener of this key ran: the app's own keys (Ctrl+C, Ctrl+D) judge by
        // the text as it was when the key arrived.
        queueMicrotask(() => latest.current.onChange?.(editor.text));
        refreshCompletion();
      }
      if (submitted !== undefined) {
        completionRequest.current++;
        latest.current.onSubmit(submitted);
      }
    };
    events.on('input', onInput);
    return () => {
      events.off('input', onInput);
    };
  }, [isActive, events, editor]);

  const prefix = editor.search ? '? ' : '> ';
  return (
    <Box flexDirection="column">
      <Box
        {...(plain ? {} : { borderStyle: 'round' as const, paddingX: 1 })}
        borderColor={isActive ? theme.accent : theme.muted}
      >
        <Box flexDirection="column" width={Math.max(10, width - (plain ? 0 : 4))}>
          {editorLines(
            editor,
            props.placeholder,
            theme.muted,
            isActive,
            Math.max(10, width - (plain ? 0 : 4)) - 2,
          ).map((line, index) => (
            <Box key={`line-${index.toString()}`}>
              {/* Never squeezed by a line that fills the box: the text wraps instead. */}
              <Box flexShrink={0} width={2}>
                <Text color={theme.accent}>{index === 0 ? prefix : '  '}</Text>
              </Box>
              <Box flexGrow={1} flexShrink={1}>
                {line}
              </Box>
            </Box>
          ))}
        </Box>
      </Box>
      {editor.vim ? (
        <Text color={theme.muted}>
          {editor.vim.mode === 'normal' ? '-- NORMAL --' : '-- INSERT --'}
        </Text>
      ) : null}
      {editor.search ? (
        <Text color={theme.muted}>
          {`(reverse search) ${editor.search.query || ''}`}
          {editor.search.query && editor.search.match === -1 ? '  no match' : ''}
          {'  Ctrl+R older · Enter take · Esc back'}
        </Text>
      ) : null}
      {editor.completion && isActive ? (
        <CompletionMenu completion={editor.completion} muted={theme.muted} accent={theme.accent} />
      ) : null}
    </Box>
  );
}

/**
 * The text's rows, wrapped here at spaces (so no row starts with the space it broke at),
 * the cursor shown as an inverse character. A cursor after a row that fills the width
 * shows at the start of the next row rather than on a row of its own.
 */
function editorLines(
  editor: PromptEditor,
  placeholder: string | undefined,
  muted: string | undefined,
  showCursor: boolean,
  width: number,
): ReactElement[] {
  const { text, cursor } = editor.buffer;
  if (!text) {
    return [
      <Text key="empty" color={muted}>
        {showCursor ? <Text inverse> </Text> : null}
        {placeholder ?? ''}
      </Text>,
    ];
  }
  const rows: ReactElement[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const here = showCursor && cursor >= start && cursor <= start + line.length;
    const ranges = wrapRanges(line, width);
    const column = cursor - start;
    // The row the cursor shows on: the first whose end it does not pass.
    let cursorRow = here ? ranges.findIndex(([, end]) => column <= end) : -1;
    const full = (index: number) => {
      const range = ranges[index];
      return range !== undefined && columnsOf(line.slice(range[0], range[1])) >= width;
    };
    if (cursorRow >= 0 && column === ranges[cursorRow]?.[1] && full(cursorRow)) {
      if (cursorRow + 1 < ranges.length) cursorRow += 1;
    }
    for (const [index, [from, to]] of ranges.entries()) {
      const key = `t-${rows.length.toString()}`;
      const row = line.slice(from, to);
      if (index !== cursorRow) {
        rows.push(<Text key={key}>{row || ' '}</Text>);
        continue;
      }
      const at = Math.max(0, Math.min(column - from, row.length));
      const under = [...row.slice(at)][0] ?? ' ';
      rows.push(
        <Text key={key}>
          {row.slice(0, at)}
          <Text inverse>{under}</Text>
          {row.slice(at + under.length)}
        </Text>,
      );
    }
  }
  return rows;
}

function CompletionMenu({
  completion,
  muted,
  accent,
}: {
  completion: Completion;
  muted: string | undefined;
  accent: string | undefined;
}) {
  const { items, selected } = completion;
  const first = Math.max(0, Math.min(selected - MENU_ROWS + 1, items.length - MENU_ROWS));
  const shown = items.slice(first, first + MENU_ROWS);
  return (
    <Box flexDirection="column" paddingX={2}>
      {shown.map((item, index) => {
        const isSelected = first + index === selected;
        return (
          <Text key={item.value} wrap="truncate-end">
            <Text color={isSelected ? accent : undefined} bold={isSelected}>
              {(isSelected ? '› ' : '  ') + (item.label ?? item.value.trim())}
            </Text>
            {item.description ? <Text color={muted}>{`  ${item.description}`}</Text> : null}
          </Text>
        );
      })}
      {items.length > MENU_ROWS ? (
        <Text color={muted}>{`  ${selected + 1}/${items.length} · Tab takes · ↑/↓ choose`}</Text>
      ) : null}
    </Box>
  );
}

/** Asks the terminal to mark pastes while the prompt takes keys, and to stop after. */
function useBracketedPaste(stdout: NodeJS.WriteStream, isActive: boolean): void {
  useEffect(() => {
    if (!isActive || !stdout.isTTY) return;
    stdout.write(ENABLE_BRACKETED_PASTE);
    const off = () => stdout.write(DISABLE_BRACKETED_PASTE);
    process.once('exit', off);
    return () => {
      process.off('exit', off);
      off();
    };
  }, [stdout, isActive]);
}
