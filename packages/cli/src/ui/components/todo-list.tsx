import type { TodoItem } from '@toolhost/core/tools';
import { visibleText } from '@toolhost/core/utils';
import { Box, Text } from 'ink';
import { useUi } from '../ui-context.js';

/** The agent's todo list as a checklist. */
export function TodoList({ todos }: { todos: readonly TodoItem[] }) {
  const { theme } = useUi();
  return (
    <Box flexDirection="column">
      {todos.map((todo, index) => {
        const done = todo.status === 'completed';
        const active = todo.status === 'in_progress';
        const mark = done ? '[x]' : active ? '[~]' : '[ ]';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a todo list is shown as a whole, in order
          <Text key={index} color={done ? theme.muted : active ? theme.accent : undefined}>
            {mark}{' '}
            <Text strikethrough={done && theme.enabled} bold={active}>
              {visibleText(todo.content)}
            </Text>
          </Text>
        );
      })}
    </Box>
  );
}
