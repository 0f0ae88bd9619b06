import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useUi } from '../ui-context.js';

/** The frame of a question to the person: a warning-coloured box with the title on top. */
export function QuestionBox({ title, children }: { title: string; children: ReactNode }) {
  const { theme, plain } = useUi();
  return (
    <Box
      flexDirection="column"
      borderStyle={plain ? undefined : 'round'}
      borderColor={theme.warning}
      paddingX={plain ? 0 : 1}
      marginTop={1}
    >
      <Text bold>{title}</Text>
      {children}
    </Box>
  );
}
