/**
 * Programs that run other programs given in their arguments. The common wrappers are seen
 * through (their options read against a table, the wrapped command judged like any
 * other); runners whose syntax this table does not model are *unclear*: they ask, and are
 * refused while deny rules exist. Shells, `eval`, `source`, `trap` and `find -exec` are
 * handled by command-analysis.ts, which parses the scripts they are given.
 */
import { type OptionSpec, parseOptions } from './parse-options.js';
import type { ShellWord } from './shell-words.js';

export type RunnerVerdict =
  /** Runs the command that starts at `commandAt` (an index into the arguments). */
  | {
      kind: 'runs';
      commandAt: number;
      /** The runner adds arguments when it runs (xargs). */
      appendsArgs?: boolean;
      /** The runner itself must pass the rules too (sudo, doas). */
      recordRunner?: boolean;
      /** Files the runner itself writes (`time -o`). */
      writes?: ShellWord[];
      /** Why the command it runs may outlive the call (`setsid` forks unless told to wait). */
      detaches?: string;
      /** Why the command it runs cannot be judged where it stands (`env -C` moves it). */
      unclear?: string;
    }
  /** Runs no other command (`env` alone, `command -v x`, `taskset -p`). */
  | { kind: 'none' }
  /** Hands a script to `sh -c` (watch). */
  | { kind: 'script'; script: ShellWord }
  | { kind: 'unclear'; why: string };

export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish']);

/** Variables that change which program runs: the documented table in execution-variables.ts. */
export { EXECUTION_VARIABLES } from './execution-variables.js';

/^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|IFS|PROMPT_COMMAND|BASH_FUNC_.*|BASH_LOADABLES_PATH|BASH_CMDS|BASH_ALIASES|CDPATH|GLOBIGNORE|EXECIGNORE|HOME|GIT_\w+|PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|RIPGREP_CONFIG_PATH|GREP_OPTIONS|TAR_OPTIONS|\w+_COMMAND|\w+_CMD|\w+_PROGRAM)$/;

type Runner = (args: readonly ShellWord[]) => RunnerVerdict;

/** A wrapper with only options before the command (`nohup`, `nice -n 5`, `stdbuf -oL`). */
function wrapper(spec: OptionSpec, operandsBefore = 0, name = ''): Runner {
  return (args) => {
    const parsed = parseOptions(args, { ...spec, stopAtOperand: true });
    if (!parsed.ok) return { kind: 'unclear', why: `${name}: ${parsed.problem}` };
    const commandAt = parsed.stoppedAt + operandsBefore;
    if (commandAt >= args.length) return { kind: 'none' };
    return { kind: 'runs', commandAt };
  };
}

const SETSID_SPEC: OptionSpec = { short: 'cfw', long: ['--ctty', '--fork', '--wait'] };

const ENV_SPEC: OptionSpec = {
  short: 'i0v',
  shortValued: 'uC',
  long: ['--ignore-environment', '--null', '--debug', '--list-signal-handling'],
  longValued: ['--unset', '--chdir'],
  longOptional: ['--block-signal', '--default-signal', '--ignore-signal'],
  stopAtOperand: true,
};

const XARGS_SPEC: OptionSpec = {
  short: '0rtpxo',
  shortValued: 'adEILnPs',
  long: [
    '--null',
    '--no-run-if-empty',
    '--verbose',
    '--interactive',
    '--exit',
    '--open-tty',
    '--show-limits',
  ],
  longValued: [
    '--arg-file',
    '--delimiter',
    '--max-lines',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ],
  longOptional: ['--eof', '--replace'],
  stopAtOperand: true,
};

const SUDO_SPEC: OptionSpec = {
  short: 'EHnPSbkAB',
  shortValued: 'ugCDphUrtT',
  long: [
    '--preserve-env',
    '--set-home',
    '--non-interactive',
    '--stdin',
    '--background',
    '--askpass',
    '--bell',
  ],
  longValued: ['--user', '--group', '--close-from', '--chdir', '--prompt', '--host', '--role'],
  stopAtOperand: true,
};

/** Runners whose syntax is not modelled: each asks, and is refused under deny rules. */
export const OPAQUE_RUNNERS = new Set([
  'flock',
  'script',
  'strace',
  'ltrace',
  'chroot',
  'unshare',
  'nsenter',
  'chrt',
  'run-parts',
  'su',
  'runuser',
  'pkexec',
  'setpriv',
  'prlimit',
  'numactl',
  'cgexec',
  'firejail',
  'bwrap',
  'systemd-run',
  'faketime',
  'fakeroot',
  'proot',
  'torsocks',
  'proxychains',
  'proxychains4',
  'catchsegv',
  'valgrind',
  'gdb',
  'busybox',
  'dbus-run-session',
  'dbus-launch',
  'xvfb-run',
  'parallel',
  'sg',
  'newgrp',
  'coproc',
  'expect',
  'at',
  'batch',
  'crontab',
  'tmux',
  'screen',
  'nsjail',
  'sandbox-exec',
  'caffeinate',
]);

/** A runner whose command may outlive the call: it never runs unasked. */
function detaching(runner: Runner, why: string): Runner {
  return (args) => {
    const verdict = runner(args);
    return verdict.kind === 'runs' ? { ...verdict, detaches: why } : verdict;
  };
}

export const RUNNERS: Record<string, Runner> = {
  env: (args) => {
    // Assignments (NAME=value) may follow the options, then the command.
    const parsed = parseOptions(args, ENV_SPEC);
    if (!parsed.ok) {
      const split = /-S|--split-string/.test(parsed.problem);
      return {
        kind: 'unclear',
        why: split ? 'env -S splits a string into a command line' : `env: ${parsed.problem}`,
      };
    }
    // The command's files would be read from another folder than the one checked.
    const moves = parsed.options.some((o) => o.name === '-C' || o.name === '--chdir');
    const unclear = moves ? 'env -C/--chdir runs the command in another folder' : undefined;
    let at = parsed.stoppedAt;
    if (args[at]?.value === '-' && args[at]?.literal) at++;
    while (
      at < args.length &&
      args[at]!.literal &&
      /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[at]!.value)
    )
      at++;
    if (at >= args.length) return unclear ? { kind: 'unclear', why: unclear } : { kind: 'none' };
    return { kind: 'runs', commandAt: at, unclear };
  },
  nohup: detaching(wrapper({}, 0, 'nohup'), 'nohup keeps a command running after the call'),
  nice: wrapper({ shortValued: 'n', longValued: ['--adjustment'], numeric: true }, 0, 'nice'),
  stdbuf: wrapper(
    { shortValued: 'ioe', longValued: ['--input', '--output', '--error'] },
    0,
    'stdbuf',
  ),
  setsid: (args) => {
    const parsed = parseOptions(args, { ...SETSID_SPEC, stopAtOperand: true });
    if (!parsed.ok) return { kind: 'unclear', why: `setsid: ${parsed.problem}` };
    if (parsed.stoppedAt >= args.length) return { kind: 'none' };
    // Without --wait it forks when it leads its process group, and returns at once.
    const waits = parsed.options.some((o) => o.name === '-w' || o.name === '--wait');
    return {
      kind: 'runs',
      commandAt: parsed.stoppedAt,
      detaches: waits ? undefined : 'setsid without -w can leave a process running after the call',
    };
  },
  ionice: (args) => {
    const parsed = parseOptions(args, {
      short: 't',
      shortValued: 'cnp',
      long: ['--ignore'],
      longValued: ['--class', '--classdata', '--pid'],
      stopAtOperand: true,
    });
    if (!parsed.ok) return { kind: 'unclear', why: `ionice: ${parsed.problem}` };
    if (parsed.options.some((o) => o.name === '-p' || o.name === '--pid')) return { kind: 'none' };
    return parsed.stoppedAt < args.length
      ? { kind: 'runs', commandAt: parsed.stoppedAt }
      : { kind: 'none' };
  },
  taskset: (args) => {
    const parsed = parseOptions(args, {
      short: 'acp',
      long: ['--all-tasks', '--cpu-list', '--pid'],
      stopAtOperand: true,
    });
    if (!parsed.ok) return { kind: 'unclear', why: `taskset: ${parsed.problem}` };
    if (parsed.options.some((o) => o.name === '-p' || o.name === '--pid')) return { kind: 'none' };
    const commandAt = parsed.stoppedAt + 1; // the CPU mask or list comes first
    return commandAt < args.length ? { kind: 'runs', commandAt } : { kind: 'none' };
  },
  timeout: wrapper(
    {
      short: 'v',
      shortValued: 'sk',
      long: ['--preserve-status', '--foreground', '--verbose'],
      longValued: ['--signal', '--kill-after'],
    },
    1, // the duration comes first
    'timeout',
  ),
  time: (args) => {
    const parsed = parseOptions(args, {
      short: 'pvaq',
      shortValued: 'fo',
      long: ['--portability', '--verbose', '--append', '--quiet'],
      longValued: ['--format', '--output'],
      stopAtOperand: true,
    });
    if (!parsed.ok) return { kind: 'unclear', why: `time: ${parsed.problem}` };
    const writes = parsed.options
      .filter((o) => o.name === '-o' || o.name === '--output')
      .map((o) => ({ value: o.value ?? '?', literal: !!o.valueLiteral }));
    return parsed.stoppedAt < args.length
      ? { kind: 'runs', commandAt: parsed.stoppedAt, writes }
      : { kind: 'none' };
  },
  command: (args) => {
    const parsed = parseOptions(args, { short: 'pvV', stopAtOperand: true });
    if (!parsed.ok) return { kind: 'unclear', why: `command: ${parsed.problem}` };
    // -v and -V only say what a name is.
    if (parsed.options.some((o) => o.name === '-v' || o.name === '-V')) return { kind: 'none' };
    return parsed.stoppedAt < args.length
      ? { kind: 'runs', commandAt: parsed.stoppedAt }
      : { kind: 'none' };
  },
  builtin: wrapper({}, 0, 'builtin'),
  exec: wrapper({ short: 'cl', shortValued: 'a' }, 0, 'exec'),
  chronic: wrapper({ short: 'ev' }, 0, 'chronic'),
  unbuffer: wrapper({ short: 'p' }, 0, 'unbuffer'),
  xargs: (args) => {
    const parsed = parseOptions(args, XARGS_SPEC);
    if (!parsed.ok) return { kind: 'unclear', why: `xargs: ${parsed.problem}` };
    // Without a command xargs runs echo.
    if (parsed.stoppedAt >= args.length) return { kind: 'none' };
    return { kind: 'runs', commandAt: parsed.stoppedAt, appendsArgs: true };
  },
  sudo: (args) => {
    if (args.some((w) => /^-[^-]*[siel]|^--(shell|login|edit|list)/.test(w.value)))
      return { kind: 'unclear', why: 'sudo starts a shell or an editor' };
    const parsed = parseOptions(args, SUDO_SPEC);
    if (!parsed.ok) return { kind: 'unclear', why: `sudo: ${parsed.problem}` };
    let at = parsed.stoppedAt;
    while (
      at < args.length &&
      args[at]!.literal &&
      /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[at]!.value)
    )
      at++;
    return at < args.length
      ? { kind: 'runs', commandAt: at, recordRunner: true }
      : { kind: 'unclear', why: 'sudo without a command' };
  },
  doas: (args) => {
    const parsed = parseOptions(args, { short: 'ns', shortValued: 'uC', stopAtOperand: true });
    if (!parsed.ok || parsed.options.some((o) => o.name === '-s'))
      return { kind: 'unclear', why: 'doas starts a shell or has options toolhost does not know' };
    return parsed.stoppedAt < args.length
      ? { kind: 'runs', commandAt: parsed.stoppedAt, recordRunner: true }
      : { kind: 'unclear', why: 'doas without a command' };
  },
  watch: (args) => {
    const parsed = parseOptions(args, {
      short: 'tbegcprd',
      shortValued: 'nq',
      long: ['--no-title', '--beep', '--errexit', '--chgexit', '--color', '--precise', '--no-wrap'],
      longValued: ['--interval', '--equexit'],
      longOptional: ['--differences'],
      stopAtOperand: true,
    });
    if (!parsed.ok) return { kind: 'unclear', why: `watch: ${parsed.problem}` };
    const rest = args.slice(parsed.stoppedAt);
    if (rest.length === 0) return { kind: 'none' };
    // watch joins its arguments and hands them to sh -c.
    return {
      kind: 'script',
      script: {
        value: rest.map((w) => w.value).join(' '),
        literal: rest.every((w) => w.literal),
      },
    };
  },
};
