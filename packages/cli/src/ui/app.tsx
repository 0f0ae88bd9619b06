/**
 * The interactive app's screen: the finished history in Ink's <Static> (printed once, so
 * it scrolls like ordinary output and is never redrawn), then the live part of the turn
 * (thinking, the answer's unfinished tail, running calls, the approval asked), the prompt
 * and the status line. Global keys live here: Esc, Ctrl+C, Ctrl+D, Shift+Tab, Ctrl+O.
 * A new history epoch (cleared, resized, thinking shown) prints the history again.
 */
import { Box, Static, Text, useInput, useStdout } from 'ink';
import { useMemo, useRef, useSyncExternalStore } from 'react';
import { ApprovalDialog } from './components/approval-dialog.js';
import { HistoryItemView } from './components/history-item-view.js';
import { LiveTurn } from './components/live-turn.js';
import { PickerDialog } from './components/picker-dialog.js';
import { StatusLine } from './components/status-line.js';
import type { ConversationController } from './conversation-controller.js';
import { gitBranch } from './git-branch.js';
import { PromptArea } from './input/prompt-area.js';
import { noteKeyPressed } from './input/question-keys.js';
import { createTheme } from './theme.js';
import { UiContext } from './ui-context.js';
import { useTerminalSize } from './use-terminal-size.js';

/** How long after a first Ctrl+C a second one quits. */
const QUIT_WINDOW_MS = 2000;

export interface AppProps {
  controller: ConversationController;
  /** The model at the start (the status line follows /model). */
  model: string;
  folder: string;
  /** The folder as shown (with ~ for the home folder). */
  folderLabel: string;
  /** Whether colours are wanted at all (NO_COLOR, screen readers: not). */
  colors: boolean;
  plain: boolean;
  /** The prompt `-i` gave, sent as the first one. */
  firstPrompt?: string;
}

export function App({ controller, folder, folderLabel, colors, plain, firstPrompt }: AppProps) {
  const { history, live } = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const theme = useMemo(() => createTheme(colors, live.themeName), [colors, live.themeName]);
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout, () => controller.reprintHistory());
  const inputText = useRef('');
  /** Esc belongs to the prompt (vim's insert mode): it does not stop the turn then. */
  const escapeTaken = useRef(controller.services().config.settings.general?.vimMode === true);
  const lastCtrlC = useRef(0);
  const branch = useBranch(folder, live.busy);

  useInput(
    (input, key) => {
      // When the person last typed: a question that comes while they type waits for a pause.
      noteKeyPressed();
      if (key.ctrl && input === 'c') {
        // A prompt being written is cleared by the editor; the next Ctrl+C is the app's. While
        // a question is shown the editor takes no keys, so Ctrl+C is the app's at once.
        if (inputText.current !== '' && !live.approval && !live.picker) return;
        if (controller.isBusy()) controller.cancelTurn();
        const now = Date.now();
        if (now - lastCtrlC.current < QUIT_WINDOW_MS) {
          void controller.quit();
          return;
        }
        lastCtrlC.current = now;
        controller.setHint('Press Ctrl+C again to quit.');
        setTimeout(() => {
          if (Date.now() - lastCtrlC.current >= QUIT_WINDOW_MS) controller.setHint(undefined);
        }, QUIT_WINDOW_MS);
        return;
      }
      if (key.ctrl && input === 'd') {
        if (inputText.current === '') void controller.quit();
        return;
      }
      if (key.shift && key.tab) {
        // In a question Shift+Tab moves back (a field, an answer); it never changes the mode
        // under a question being answered.
        if (live.approval || live.picker) return;
        controller.cycleApprovalMode();
        return;
      }
      if (key.ctrl && input === 'o') {
        controller.toggleThinking();
        return;
      }
      if (
        key.escape &&
        controller.isBusy() &&
        !live.approval &&
        !live.picker &&
        !escapeTaken.current
      )
        controller.cancelTurn();
    },
    { isActive: !live.suspended },
  );

  return (
    <UiContext.Provider
      value={{ theme, width: columns, height: rows, plain, showThinking: live.showThinking }}
    >
      <Static key={live.historyEpoch} items={[...history]}>
        {(item) => <HistoryItemView key={item.id} item={item} />}
      </Static>
      {live.suspended ? null : (
        <Box flexDirection="column">
          <LiveTurn live={live} />
          {live.approval ? (
            <ApprovalDialog
              key={live.approval.id}
              call={live.approval.call}
              isActive={!live.suspended}
              onAnswer={(decision) => controller.answerApproval(decision)}
              saving={controller.saveTargets()}
              onNotice={(text) => controller.setHint(text)}
              onEscape={() => controller.cancelTurn()}
            />
          ) : null}
          {live.picker && !live.approval ? (
            <PickerDialog
              key={live.picker.id}
              picker={live.picker}
              onAnswer={(value) => live.picker?.resolve(value)}
            />
          ) : null}
          <PromptArea
            services={controller.services()}
            isActive={!live.approval && !live.picker && !live.suspended}
            onChange={(text) => {
              inputText.current = text;
            }}
            onEscapeTaken={(taken) => {
              escapeTaken.current = taken;
            }}
            placeholder={live.busy ? ' Type to queue a message' : ' Ask anything'}
            {...(firstPrompt !== undefined ? { firstLine: firstPrompt } : {})}
          />
          <StatusLine
            model={controller.endpoint().model}
            approvalMode={live.approvalMode}
            contextLeftPercent={live.contextLeftPercent}
            folder={folderLabel}
            branch={branch}
          />
          {live.hint ? <Text color={theme.warning}>{live.hint}</Text> : null}
        </Box>
      )}
    </UiContext.Provider>
  );
}

/** The branch, read again after each turn (the agent may have switched it). */
function useBranch(folder: string, busy: boolean): string | undefined {
  const branch = useRef<string | undefined>(undefined);
  const lastBusy = useRef<boolean | undefined>(undefined);
  if (lastBusy.current !== busy && !busy) branch.current = gitBranch(folder);
  lastBusy.current = busy;
  return branch.current;
}
