/**
 * The empty prompt folders the sandbox makes to mount on (policy.ts) are given back by
 * toolhost when their command ends. This keeps that promise when toolhost cannot: a small
 * shell process of its own, started with the first such folder and outside toolhost's
 * process group, is told of each folder made and given back (and let go when none is
 * left). Once toolhost is gone (exited, or killed, even with SIGKILL: its end of the pipe
 * closes), the janitor removes the folders still listed, each once no sandbox anywhere
 * has it mounted (a background command kept past toolhost's exit holds its own) and only
 * while it is empty.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Lines `+folder` / `-folder` on standard input keep the list; at its end, each listed
 * folder is removed once no process's mount table names it, checked every second. Without
 * readable mount tables nothing is removed: a folder in use must not vanish from under a
 * sandbox (an empty folder left behind is the lesser harm).
 */
const SCRIPT = `
list=''
drop() {
  rest=''
  while IFS= read -r f; do
    [ -n "$f" ] && [ "$f" != "$1" ] && rest="$rest$f
"
  done <<EOF
$list
EOF
  list=$rest
}
while IFS= read -r line; do
  case $line in
    +*) list="$list\${line#+}
" ;;
    -*) drop "\${line#-}" ;;
  esac
done
[ -r /proc/self/mountinfo ] || exit 0
while [ -n "$list" ]; do
  rest=''
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    case $f in *' '*) esc=$(printf '%s' "$f" | sed 's/ /\\\\040/g') ;; *) esc=$f ;; esac
    if cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -qF -- " $esc "; then
      rest="$rest$f
"
    else
      rmdir -- "$f" 2>/dev/null
    fi
  done <<EOF
$list
EOF
  list=$rest
  [ -z "$list" ] || sleep 1
done
`;

let janitor: ChildProcess | null | undefined;
/** The folders the running janitor was told of and not yet given back. */
const listed = new Set<string>();

function start(): ChildProcess | null {
  try {
    const child = spawn('/bin/sh', ['-c', SCRIPT], {
      cwd: '/',
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own process group and session: ending toolhost's group, or its terminal, must
      // not end the one process that cleans up after it.
      detached: true,
    });
    child.on('error', () => {
      janitor = null;
    });
    child.stdin?.on('error', () => undefined);
    // Neither the process nor its pipe keeps toolhost running.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return child;
  } catch {
    return null;
  }
}

/** A folder the janitor can name on one line and find in mount tables as written (or with escaped spaces). */
function plain(folder: string): boolean {
  return !/[\n\t\\]/.test(folder);
}

/** Tells the janitor of an empty folder made to mount on, to remove should toolhost not. */
export function madeMountPoint(folder: string): void {
  if (process.platform !== 'linux' || !plain(folder)) return;
  janitor ??= start();
  if (!janitor?.stdin) return;
  janitor.stdin.write(`+${folder}\n`);
  listed.add(folder);
}

/**
 * Tells the janitor a folder was given back (removed, or now the person's). With none
 * left it is let go (it ends at once), so no process or pipe is kept while no command runs.
 */
export function gaveBackMountPoint(folder: string): void {
  if (!janitor?.stdin || !listed.delete(folder)) return;
  janitor.stdin.write(`-${folder}\n`);
  if (listed.size > 0) return;
  janitor.stdin.destroy();
  janitor = undefined;
}
