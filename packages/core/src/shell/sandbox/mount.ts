/**
 * A sandbox's file system as a list of mounts, the shared vocabulary of the profiles
 * (profiles/: what each shows and hides), the deny rules' paths (rule-paths/: laid over a
 * profile) and bwrap.ts (which turns the list into bubblewrap's arguments).
 */

/** One step of the sandbox's file system; each lands on top of the ones before. */
export type Mount =
  | { kind: 'read-only'; path: string }
  | { kind: 'writable'; path: string }
  /** An empty private folder in its place (its writes are lost with the sandbox). */
  | { kind: 'empty-folder'; path: string }
  /** An empty folder in its place that nothing can be written to (what Read deny hides). */
  | { kind: 'hidden-folder'; path: string }
  /** An empty, read-only file in its place. */
  | { kind: 'empty-file'; path: string }
  | { kind: 'link'; path: string; target: string }
  /** A fresh /dev with only the harmless devices, and the sandbox's own /proc. */
  | { kind: 'devices'; path: string }
  | { kind: 'processes'; path: string };
