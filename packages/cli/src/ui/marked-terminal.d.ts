/** marked-terminal ships no types; this is the one function used here. */
declare module 'marked-terminal' {
  export function markedTerminal(
    options?: Record<string, unknown>,
    highlightOptions?: Record<string, unknown>,
  ): unknown;
}
