import { Text } from 'ink';
import { useEffect, useState } from 'react';
import { formatDuration } from '../format.js';
import { useUi } from '../ui-context.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner and the time since `since`; one tick redraws only this line. */
export function Spinner({ since }: { since: number }) {
  const { theme, plain } = useUi();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (plain) return;
    const timer = setInterval(() => setNow(Date.now()), 120);
    return () => clearInterval(timer);
  }, [plain]);
  if (plain) return <Text>running</Text>;
  const frame = FRAMES[Math.floor(now / 120) % FRAMES.length];
  return (
    <Text color={theme.accent}>
      {frame} <Text color={theme.muted}>{formatDuration(Math.max(0, now - since))}</Text>
    </Text>
  );
}
