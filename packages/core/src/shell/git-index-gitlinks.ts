/**
 * The paths of a git index, and its gitlinks (submodule entries), read from the file
 * itself. The paths tell what `git show` and `git log -p` may print; for gitlinks git looks
 * into a gitlink's `.git` (running it with that folder's own config) for `status`, and for
 * `diff --submodule=diff`, whether or not `.gitmodules` names it. Index versions 2, 3 and 4,
 * SHA-1 and SHA-256. Reading the file keeps the read-only check from starting git to ask.
 */
import { readFileSync, statSync } from 'node:fs';

/** A gitlink's mode in the index. */
const GITLINK = 0o160000;
/** The fixed part of an entry before its object name: times, dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;

interface IndexEntry {
  path: string;
  mode: number;
}

/** The last index read, by file: decisions ask twice per call (confirm and run). */
const cache = new Map<string, { stamp: string; entries: IndexEntry[] | null }>();

/**
 * The paths of the gitlinks in the index file `indexFile` (none when there is no index),
 * or null when the file is not an index this reader understands (the caller fails closed).
 */
export function indexGitlinks(indexFile: string, sha256 = false): string[] | null {
  const entries = indexEntries(indexFile, sha256);
  if (entries === null) return null;
  return entries.filter((entry) => (entry.mode & 0o170000) === GITLINK).map((e) => e.path);
}

/**
 * Every path the index file `indexFile` tracks (none when there is no index), or null
 * when the file is not an index this reader understands.
 */
export function indexPaths(indexFile: string, sha256 = false): string[] | null {
  const entries = indexEntries(indexFile, sha256);
  return entries === null ? null : entries.map((entry) => entry.path);
}

function indexEntries(indexFile: string, sha256: boolean): IndexEntry[] | null {
  let stamp: string;
  try {
    const stats = statSync(indexFile);
    stamp = `${stats.mtimeMs}:${stats.size}:${stats.ino}:${sha256}`;
  } catch {
    return [];
  }
  const known = cache.get(indexFile);
  if (known?.stamp === stamp) return known.entries;
  let entries: IndexEntry[] | null;
  try {
    entries = parseIndex(readFileSync(indexFile), sha256 ? 32 : 20);
  } catch {
    entries = null;
  }
  cache.clear();
  cache.set(indexFile, { stamp, entries });
  return entries;
}

function parseIndex(bytes: Buffer, hashBytes: number): IndexEntry[] | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = bytes.readUInt32BE(8);
  const found: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let entry = 0; entry < count; entry++) {
    const start = at;
    const flagsAt = start + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > bytes.length) return null;
    const mode = bytes.readUInt32BE(start + 24);
    const flags = bytes.readUInt16BE(flagsAt);
    at = flagsAt + 2;
    if (version >= 3 && flags & 0x4000) at += 2; // extended flags
    let name: Buffer;
    if (version === 4) {
      // How many bytes of the previous name to drop, then the rest of this one.
      let byte = bytes[at++];
      if (byte === undefined) return null;
      let drop = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[at++];
        if (byte === undefined) return null;
        drop = ((drop + 1) << 7) | (byte & 0x7f);
      }
      const end = bytes.indexOf(0, at);
      if (end === -1 || drop > previous.length) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - drop), bytes.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, at);
      if (end === -1) return null;
      name = bytes.subarray(at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
    }
    previous = name;
    found.push({ path: name.toString('utf8'), mode });
  }
  return found;
}
