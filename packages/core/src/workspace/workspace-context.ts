/**
 * The workspace path policy: the one place that decides whether a tool may touch a path.
 * A path is resolved the way the kernel would open it (every symbolic link followed, even
 * a dangling one, `..` applied after links), and the result must lie inside a root by
 * whole path components (`/ws` does not contain `/ws-evil`).
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export type PathAccess = 'read' | 'write';

export type PathCheck =
  | { ok: true /** The path as the kernel resolves it: use this one for I/O. */; realPath: string }
  | { ok: false; reason: 'not_absolute' | 'outside_workspace' | 'symlink_loop'; message: string };

/** Thrown when the workspace itself cannot be set up (a root missing or not a folder). */
export class WorkspaceError extends Error {}

const MAX_SYMLINK_HOPS = 40;

export class WorkspaceContext {
  private readonly rootList: string[];
  private readonly readOnlyList: string[] = [];
  /** Read-only folders whose path is worked out on the first decision that needs them. */
  private readonly pendingReadOnly: (() => string)[] = [];
  private readonly allowedFiles = new Set<string>();

  /**
   * @param roots absolute or cwd-relative folders; each must exist. The first is the
   *   project root (settings, memory, default working directory).
   */
  constructor(roots: string[]) {
    if (roots.length === 0) throw new WorkspaceError('A workspace needs at least one root folder.');
    const real: string[] = [];
    for (const root of roots) {
      const resolved = path.resolve(root);
      let stats: ReturnType<typeof statSync>;
      try {
        stats = statSync(resolved);
      } catch {
        throw new WorkspaceError(
          `Workspace folder ${resolved} does not exist; create it or pass another folder.`,
        );
      }
      if (!stats.isDirectory()) {
        throw new WorkspaceError(
          `Workspace root ${resolved} is not a folder; pass a folder instead.`,
        );
      }
      const realRoot = realpathSync.native(resolved);
      if (!real.includes(realRoot)) real.push(realRoot);
    }
    this.rootList = real;
  }

  /** The real paths of the workspace roots, the project root first. */
  get roots(): readonly string[] {
    return this.rootList;
  }

  get projectRoot(): string {
    return this.rootList[0]!;
  }

  /** Lets tools read (never write) below `dir`, e.g. the folder of saved long outputs. */
  addReadOnlyDirectory(dir: string): void {
    const real = resolveLikeKernel(path.resolve(dir));
    if (typeof real === 'string' && !this.readOnlyList.includes(real)) this.readOnlyList.push(real);
  }

  /**
   * addReadOnlyDirectory for a folder whose path costs something to work out (a hash, links
   * to resolve): done on the first path decision, which a command such as `toolhost tools`
   * never makes.
   */
  addReadOnlyDirectoryLater(dir: () => string): void {
    this.pendingReadOnly.push(dir);
  }

  /** The folders tools may read below besides the roots. */
  private get readOnlyDirs(): string[] {
    while (this.pendingReadOnly.length > 0)
      this.addReadOnlyDirectory(this.pendingReadOnly.shift()!());
    return this.readOnlyList;
  }

  /**
   * Lets tools read and write one file outside the roots that toolhost itself chose (the
   * global memory file), never a folder.
   */
  allowFile(file: string): void {
    const real = resolveLikeKernel(path.resolve(file));
    if (real) this.allowedFiles.add(real);
  }

  /** Why `inputPath` is not absolute, with the absolute path to send instead; null when it is. */
  notAbsoluteMessage(inputPath: string): string | null {
    if (path.isAbsolute(inputPath)) return null;
    return `${inputPath} is not an absolute path; send the full path, e.g. ${path.join(this.projectRoot, inputPath)}.`;
  }

  /** Decides whether `inputPath` (absolute) may be read or written. */
  check(inputPath: string, access: PathAccess = 'read'): PathCheck {
    const notAbsolute = this.notAbsoluteMessage(inputPath);
    if (notAbsolute) return { ok: false, reason: 'not_absolute', message: notAbsolute };
    const realPath = resolveLikeKernel(inputPath);
    if (realPath === null) {
      return {
        ok: false,
        reason: 'symlink_loop',
        message: `${inputPath} goes through a loop of symbolic links and cannot be opened.`,
      };
    }
    const allowed = access === 'read' ? [...this.rootList, ...this.readOnlyDirs] : this.rootList;
    if (allowed.some((root) => isWithin(root, realPath)) || this.allowedFiles.has(realPath)) {
      return { ok: true, realPath };
    }

    const lexical = path.resolve(inputPath);
    const throughLink = allowed.some((root) => isWithin(root, lexical));
    const where = this.describeRoots();
    return {
      ok: false,
      reason: 'outside_workspace',
      message: throughLink
        ? `${inputPath} leads outside the workspace through a symbolic link (it resolves to ${realPath}); only paths inside ${where} may be ${access === 'read' ? 'read' : 'changed'}.`
        : `${inputPath} is outside the workspace; only paths inside ${where} may be ${access === 'read' ? 'read' : 'changed'}.`,
    };
  }

  /**
   * For a path that is already real (as the kernel reports an open file): may it be used?
   * No resolving here, so it is cheap enough to ask for every file opened.
   */
  allowsRealPath(realPath: string, access: PathAccess = 'read'): boolean {
    const allowed = access === 'read' ? [...this.rootList, ...this.readOnlyDirs] : this.rootList;
    return allowed.some((root) => isWithin(root, realPath)) || this.allowedFiles.has(realPath);
  }

  /** True when `inputPath` resolves inside a root. */
  contains(inputPath: string): boolean {
    return this.check(inputPath, 'write').ok;
  }

  /** A path for display: relative to the root that contains it, else absolute. */
  relative(absolutePath: string): string {
    for (const root of this.rootList) {
      if (isWithin(root, absolutePath)) {
        const rel = path.relative(root, absolutePath) || '.';
        // Only a second or later root is named: the project root is the one people mean.
        return root !== this.projectRoot ? path.join(path.basename(root), rel) : rel;
      }
    }
    return absolutePath;
  }

  private describeRoots(): string {
    return this.rootList.length === 1 ? this.projectRoot : `one of ${this.rootList.join(', ')}`;
  }
}

/** True when `candidate` is `root` or below it, comparing whole path components. */
export function isWithin(root: string, candidate: string): boolean {
  // The root itself gives '', which passes every test below.
  const relative = path.relative(root, candidate);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/**
 * Where `file` really leads when that is outside `realRoot` (a real path), through a link
 * of its own or of a folder above it; undefined while it stays inside. For files a project
 * hands toolhost to read into the prompt (commands, subagents), which must not bring along
 * what lies outside it.
 */
export function leadsOutside(realRoot: string, file: string): string | undefined {
  const real = resolveLikeKernel(path.resolve(file));
  if (real === null) return file;
  return isWithin(realRoot, real) ? undefined : real;
}

/**
 * Resolves an absolute path as the kernel would when opening or creating it: symbolic
 * links are followed wherever they point (existing or not), `..` goes to the parent of the
 * real location. Components that do not exist are appended as written. Returns null for a
 * symbolic link loop.
 */
export function resolveLikeKernel(absolutePath: string): string | null {
  const pending = splitComponents(absolutePath);
  let current = path.parse(absolutePath).root;
  let hops = 0;
  while (pending.length > 0) {
    const component = pending.shift()!;
    // path.join applies `.` and `..` to the real location reached so far, as the kernel does.
    const next = path.join(current, component);
    let isLink = false;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // Nothing exists here: this part would be created, not followed. A later `..` may
      // lead back to folders that exist, whose links are followed again.
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) return null;
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      // The link was replaced since lstat (a racing swap): look at this component again.
      pending.unshift(component);
      continue;
    }
    pending.unshift(...splitComponents(target));
    if (path.isAbsolute(target)) current = path.parse(target).root;
  }
  return current;
}

/**
 * resolveLikeKernel for many paths at once (a tool named a thousand files): each folder is
 * resolved once (from its parent's answer), then only the path's own last part is looked
 * at; a part that is a link is resolved the whole way, as resolveLikeKernel does. The same answers as resolveLikeKernel on each path, for
 * a tenth of the system calls when the paths share their folders' ancestors.
 */
export function kernelResolver(): (absolutePath: string) => string | null {
  const folders = new Map<string, string | null>();
  const resolve = (normal: string): string | null => {
    const parent = path.dirname(normal);
    if (parent === normal) return normal;
    let realParent = folders.get(parent);
    if (realParent === undefined) {
      realParent = resolve(parent);
      folders.set(parent, realParent);
    }
    if (realParent === null) return null;
    const candidate = path.join(realParent, path.basename(normal));
    let isLink = false;
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
    } catch {
      // Nothing there: it would be created as written.
    }
    return isLink ? resolveLikeKernel(normal) : candidate;
  };
  // A `..` is applied to the real location by resolveLikeKernel, not to the written one.
  return (absolutePath) =>
    path.resolve(absolutePath) === absolutePath
      ? resolve(absolutePath)
      : resolveLikeKernel(absolutePath);
}

/** The parts of a path: a backslash is a character of a name, as on Linux (`a\b` is one file). */
function splitComponents(p: string): string[] {
  return p.split('/').filter((part) => part.length > 0);
}
