/**
 * The gitlinks (submodule entries) of a git index, read from the file itself: git looks
 * into a gitlink's `.git` (running it with that folder's own config) for `status`, and for
 * `diff --submodule=diff`, whether or not `.gitmodules` names it. Index versions 2, 3 and 4,
 * SHA-1 and SHA-256. Reading the file keeps the read-only check from starting git to ask.
 */
import { readFileSync, statSync } from 'node:fs';

/** A gitlink's mode in the index. */
const GITLINK = 0o160000;
/** The fixed part of an entry before its object name: times, dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;

/** The last index read, by file: decisions ask twice per call (confirm and run). */
const cache = new Map<string, { stamp: string; paths: string[] | null }>();

/**
 * The paths of the gitlinks in the index file `indexFile` (none when there is no index),
 * or null when the file is not an index this reader understands (the caller fails closed).
 */
export function indexGitlinks(indexFile: string, sha256 = false): string[] | null {
  let stamp: string;
  try {
    const stats = statSync(indexFile);
    stamp = `${stats.mtimeMs}:${stats.size}:${stats.ino}:${sha256}`;
  } catch {
    return [];
  }
  const known = cache.get(indexFile);
  if (known?.stamp === stamp) return known.paths;
  let paths: string[] | null;
  try {
    paths = parseIndex(readFileSync(indexFile), sha256 ? 32 : 20);
  } catch {
    paths = null;
  }
  cache.clear();
  cache.set(indexFile, { stamp, paths });
  return paths;
}

function parseIndex(bytes: Buffer, hashBytes: number): string[] | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = bytes.readUInt32BE(8);
  const found: string[] = [];
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
    if ((mode & 0o170000) === GITLINK) found.push(name.toString('utf8'));
  }
  return found;
}
