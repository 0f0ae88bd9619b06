/**
 * The socket filter for a sandbox without network: a seccomp program (classic BPF, as
 * bwrap's `--seccomp` reads it) that lets `socket()` make only internet and netlink sockets,
 * which live in the sandbox's empty network namespace. A unix socket could reach a server
 * outside through a socket file (docker's, D-Bus's), which no namespace stops and a
 * read-only mount does not either; `socketpair()` stays, as it reaches nobody. io_uring is
 * refused, since it can make sockets without `socket()`. A 32-bit program (the machine's
 * compatibility mode) may make no socket at all; any other mode is ended at once.
 */

/** The machine modes the filter knows: each its audit tag and its system call numbers. */
interface Machine {
  arch: number;
  socket: number;
  ioUringSetup: number;
  /** x86-64's x32 calls carry this bit; refused outright. */
  x32Bit?: number;
  compat: { arch: number; refused: number[] };
}

const MACHINES: Readonly<Record<string, Machine>> = {
  x64: {
    arch: 0xc000003e,
    socket: 41,
    ioUringSetup: 425,
    x32Bit: 0x40000000,
    // i386: socketcall, socket, io_uring_setup
    compat: { arch: 0x40000003, refused: [102, 359, 425] },
  },
  arm64: {
    arch: 0xc00000b7,
    socket: 198,
    ioUringSetup: 425,
    // 32-bit ARM: socket, io_uring_setup
    compat: { arch: 0x40000028, refused: [281, 425] },
  },
};

/** Socket families that stay: AF_INET, AF_INET6, AF_NETLINK. */
export const ALLOWED_FAMILIES = [2, 10, 16] as const;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
/** The refused call fails with EACCES ("Permission denied"), as a program expects. */
export const SECCOMP_RET_EACCES = 0x00050000 | 13;

/** Offsets in the kernel's `struct seccomp_data` (its first argument's low half: little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

export interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

type Step =
  | { load: number }
  | { ifEqual: number; to: string; else?: string }
  | { ifAtLeast: number; to: string }
  | { label: string }
  | { ret: number };

/** The filter for a machine (`process.arch`), or null where it is not known. */
export function socketFilter(machine: string = process.arch): Instruction[] | null {
  const m = MACHINES[machine];
  if (!m) return null;
  const steps: Step[] = [
    { load: ARCH },
    { ifEqual: m.arch, to: 'native' },
    { ifEqual: m.compat.arch, to: 'compat', else: 'kill' },
    { label: 'native' },
    { load: NR },
    ...(m.x32Bit ? [{ ifAtLeast: m.x32Bit, to: 'refuse' }] : []),
    { ifEqual: m.ioUringSetup, to: 'refuse' },
    { ifEqual: m.socket, to: 'family', else: 'allow' },
    { label: 'family' },
    { load: ARG0 },
    ...ALLOWED_FAMILIES.map((family) => ({ ifEqual: family, to: 'allow' })),
    { ret: SECCOMP_RET_EACCES },
    { label: 'compat' },
    { load: NR },
    ...m.compat.refused.map((nr) => ({ ifEqual: nr, to: 'refuse' })),
    { label: 'allow' },
    { ret: SECCOMP_RET_ALLOW },
    { label: 'refuse' },
    { ret: SECCOMP_RET_EACCES },
    { label: 'kill' },
    { ret: SECCOMP_RET_KILL_PROCESS },
  ];
  return assemble(steps);
}

/** Steps to instructions, labels turned into forward jumps (BPF jumps only forward). */
function assemble(steps: Step[]): Instruction[] {
  const at = new Map<string, number>();
  let count = 0;
  for (const step of steps) {
    if ('label' in step) at.set(step.label, count);
    else count++;
  }
  const out: Instruction[] = [];
  const jump = (label: string | undefined) =>
    label === undefined ? 0 : at.get(label)! - out.length - 1;
  for (const step of steps) {
    if ('load' in step) out.push({ code: BPF_LD_W_ABS, jt: 0, jf: 0, k: step.load });
    else if ('ifEqual' in step)
      out.push({ code: BPF_JEQ_K, jt: jump(step.to), jf: jump(step.else), k: step.ifEqual });
    else if ('ifAtLeast' in step)
      out.push({ code: BPF_JGE_K, jt: jump(step.to), jf: 0, k: step.ifAtLeast });
    else if ('ret' in step) out.push({ code: BPF_RET_K, jt: 0, jf: 0, k: step.ret });
  }
  return out;
}

/** The program as bwrap reads it: `struct sock_filter` entries in the machine's byte order. */
export function encodeFilter(program: readonly Instruction[]): Buffer {
  const buffer = Buffer.alloc(program.length * 8);
  program.forEach((instruction, i) => {
    buffer.writeUInt16LE(instruction.code, i * 8);
    buffer.writeUInt8(instruction.jt, i * 8 + 2);
    buffer.writeUInt8(instruction.jf, i * 8 + 3);
    buffer.writeUInt32LE(instruction.k >>> 0, i * 8 + 4);
  });
  return buffer;
}
