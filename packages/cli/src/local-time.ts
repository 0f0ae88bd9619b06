/**
 * Times for people reading a terminal: the machine's own time zone (TZ), not UTC, which
 * is what the JSON outputs keep.
 */
const pad = (value: number) => String(value).padStart(2, '0');

/** `2026-11-23 08:05` or, with seconds, `2026-11-23 08:05:09`, in local time. */
export function localDateTime(date: Date, options: { seconds?: boolean } = {}): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return `${day} ${time}${options.seconds ? `:${pad(date.getSeconds())}` : ''}`;
}
