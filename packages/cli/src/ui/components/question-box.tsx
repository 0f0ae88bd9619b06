import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useUi } from '../ui-context.js';

/**
 * The frame of a question to the person: a warning-coloured box with the title on top.
 * While the person is still typing what they began before it came (`armed` false), the
 * answers are not shown: keys typed then are not answers.
 */
export function QuestionBox({
  title,
  armed = true,
  children,
}: {
  title: string;
  armed?: boolean;
  children: ReactNode;
}) {
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
      {armed ? (
        children
      ) : (
        <Text color={theme.muted}>
          A question: the keys typed until you pause are not taken as its answer.
        </Text>
      )}
    </Box>
  );
}
