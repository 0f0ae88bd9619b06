import { useEffect, useRef, useState } from 'react';

/** Time after the last resize event before the history is printed again at the new width. */
const SETTLE_MS = 250;

const sizeOf = (stdout: NodeJS.WriteStream) => ({
  columns: stdout.columns || 80,
  rows: stdout.rows || 24,
});

/** The terminal's size, followed as it changes; `onWidthSettled` runs once a width change ends. */
export function useTerminalSize(
  stdout: NodeJS.WriteStream,
  onWidthSettled: () => void,
): { columns: number; rows: number } {
  const [size, setSize] = useState(() => sizeOf(stdout));
  const settled = useRef(onWidthSettled);
  settled.current = onWidthSettled;
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let width = sizeOf(stdout).columns;
    const onResize = () => {
      setSize(sizeOf(stdout));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const now = sizeOf(stdout).columns;
        if (now !== width) {
          width = now;
          settled.current();
        }
      }, SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
