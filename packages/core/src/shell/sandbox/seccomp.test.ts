/**
 * The socket filter, run in a small interpreter of the BPF it is made of, over the system
 * calls a program makes: what passes, what fails with EACCES, what ends the process. The
 * kernel's verdicts are proven with real bwrap in test/sandbox-profiles.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_FAMILIES,
  encodeFilter,
  type Instruction,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_EACCES,
  SECCOMP_RET_KILL_PROCESS,
  socketFilter,
} from './seccomp.js';

interface Call {
  arch: number;
  nr: number;
  arg0?: number;
}

/** Runs `program` over one call as the kernel would (the few instructions it uses). */
function verdict(program: readonly Instruction[], call: Call): number {
  let accumulator = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const { code, jt, jf, k } = program[pc]!;
    if (code === 0x20) {
      const fields: Record<number, number> = { 0: call.nr, 4: call.arch, 16: call.arg0 ?? 0 };
      if (!(k in fields)) throw new Error(`load of unknown offset ${k}`);
      accumulator = fields[k]!;
    } else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x35) pc += accumulator >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unknown instruction ${code}`);
  }
  throw new Error('the program ran off its end');
}

const X64 = 0xc000003e;
const I386 = 0x40000003;
const ARM64 = 0xc00000b7;
const ARM = 0x40000028;

// The programs are made inside each test, so that a changed table shows in the test.
describe('socketFilter on x86-64', () => {
  const run = (call: Call) => verdict(socketFilter('x64')!, call);

  it('refuses unix sockets (and every family but internet and netlink)', () => {
    expect(run({ arch: X64, nr: 41, arg0: 1 })).toBe(SECCOMP_RET_EACCES); // AF_UNIX
    expect(run({ arch: X64, nr: 41, arg0: 40 })).toBe(SECCOMP_RET_EACCES); // AF_VSOCK
    expect(run({ arch: X64, nr: 41, arg0: 17 })).toBe(SECCOMP_RET_EACCES); // AF_PACKET
    for (const family of ALLOWED_FAMILIES)
      expect(run({ arch: X64, nr: 41, arg0: family })).toBe(SECCOMP_RET_ALLOW);
    expect(ALLOWED_FAMILIES).toEqual([2, 10, 16]);
  });

  it('lets every other call pass, socketpair and connect included', () => {
    for (const nr of [0, 1, 42, 53, 59, 40, 424, 426])
      expect(run({ arch: X64, nr, arg0: 1 })).toBe(SECCOMP_RET_ALLOW);
  });

  it('refuses io_uring and x32 calls', () => {
    expect(run({ arch: X64, nr: 425 })).toBe(SECCOMP_RET_EACCES);
    expect(run({ arch: X64, nr: 0x40000000 + 41, arg0: 2 })).toBe(SECCOMP_RET_EACCES);
    expect(run({ arch: X64, nr: 0x40000000 })).toBe(SECCOMP_RET_EACCES);
    expect(run({ arch: X64, nr: 0x3fffffff })).toBe(SECCOMP_RET_ALLOW);
  });

  it('gives 32-bit programs no socket at all, and ends any other mode', () => {
    for (const nr of [102, 359, 425]) expect(run({ arch: I386, nr })).toBe(SECCOMP_RET_EACCES);
    for (const nr of [41, 1, 358, 360]) expect(run({ arch: I386, nr })).toBe(SECCOMP_RET_ALLOW);
    expect(run({ arch: ARM64, nr: 41 })).toBe(SECCOMP_RET_KILL_PROCESS);
  });
});

describe('socketFilter on arm64', () => {
  const run = (call: Call) => verdict(socketFilter('arm64')!, call);

  it('refuses unix sockets and io_uring, lets the rest pass', () => {
    expect(run({ arch: ARM64, nr: 198, arg0: 1 })).toBe(SECCOMP_RET_EACCES);
    expect(run({ arch: ARM64, nr: 198, arg0: 10 })).toBe(SECCOMP_RET_ALLOW);
    expect(run({ arch: ARM64, nr: 425 })).toBe(SECCOMP_RET_EACCES);
    // No x32 on arm64: high numbers are not refused for that.
    expect(run({ arch: ARM64, nr: 0x40000000 })).toBe(SECCOMP_RET_ALLOW);
    expect(run({ arch: ARM64, nr: 41, arg0: 1 })).toBe(SECCOMP_RET_ALLOW);
  });

  it('gives 32-bit ARM programs no socket, and ends any other mode', () => {
    for (const nr of [281, 425]) expect(run({ arch: ARM, nr })).toBe(SECCOMP_RET_EACCES);
    expect(run({ arch: ARM, nr: 282 })).toBe(SECCOMP_RET_ALLOW);
    expect(run({ arch: X64, nr: 41 })).toBe(SECCOMP_RET_KILL_PROCESS);
  });
});

describe('socketFilter elsewhere, and its bytes', () => {
  it('is null for a machine it does not know', () => {
    expect(socketFilter('riscv64')).toBeNull();
    expect(socketFilter('ia32')).toBeNull();
  });

  it('is this machine’s by default', () => {
    expect(socketFilter()).toEqual(socketFilter(process.arch));
  });

  it('encodes each instruction as struct sock_filter, little-endian', () => {
    const bytes = encodeFilter([
      { code: 0x15, jt: 1, jf: 2, k: 0xc000003e },
      { code: 0x06, jt: 0, jf: 0, k: SECCOMP_RET_KILL_PROCESS },
    ]);
    expect([...bytes]).toEqual([
      0x15, 0x00, 0x01, 0x02, 0x3e, 0x00, 0x00, 0xc0, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x80,
    ]);
  });
});
