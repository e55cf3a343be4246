import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SpaceActError } from '../core/errors.ts';

/** What each file-system error code means, in words a person can act on. */
const MEANING: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'it already exists',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EBUSY: 'the file or folder is busy',
  ENOTEMPTY: 'the folder is not empty',
  EXDEV: 'it is on another device',
  EIO: 'an input/output error',
  EFBIG: 'the file is too large',
};

/** Verbs for the system calls that fail most, so the line says what was being done. */
const VERB: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'create the folder',
  rename: 'rename',
  unlink: 'remove',
  rmdir: 'remove the folder',
  scandir: 'list the folder',
  stat: 'look at',
  lstat: 'look at',
  copyfile: 'copy',
  mkdtemp: 'create a temporary folder in',
  access: 'access',
};

/**
 * One clear line for a Node.js file-system error (`cannot write /x/summary.json: the file
 * system is read-only (EROFS)`), or null when `err` is not one. The command line prints it
 * instead of a stack trace.
 */
export function fsErrorLine(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const e = err as NodeJS.ErrnoException & { dest?: string };
  if (typeof e.code !== 'string' || !(e.code in MEANING) || (e.syscall === undefined && e.path === undefined)) return null;
  const verb = (e.syscall && VERB[e.syscall]) ?? (e.syscall ? `${e.syscall}` : 'use');
  const where = e.path ? ` ${e.path}${e.dest ? ` to ${e.dest}` : ''}` : '';
  return `cannot ${verb}${where}: ${MEANING[e.code]} (${e.code})`;
}

/**
 * Runs `write` (a file-system call on `file`) so that an error from it names the file: a
 * failed write to an open descriptor (ENOSPC, EDQUOT, EIO) carries no path of its own, and
 * its line would say what failed but not where.
 */
export function namingFile<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e && typeof e === 'object' && typeof e.code === 'string' && e.path === undefined) e.path = file;
    throw err;
  }
}

/** The nearest folder of `path` (itself or an ancestor) that exists. */
function nearestExisting(path: string): string {
  let p = resolve(path);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

/**
 * The error to report when the output folder `out` cannot be created: on a read-only mount
 * Node's recursive mkdir can fail with ENOENT (a missing parent it could not create either);
 * the nearest existing folder is then asked whether it can be written, and a read-only file
 * system or a refused permission is said as such, naming that folder.
 */
export function outFolderError(out: string, err: unknown): unknown {
  // Only a missing folder is asked about: EROFS, EACCES and EPERM already say what they are.
  if ((err as NodeJS.ErrnoException | null)?.code !== 'ENOENT') return err;
  const base = nearestExisting(out);
  try {
    accessSync(base, constants.W_OK);
  } catch (why) {
    const c = (why as NodeJS.ErrnoException).code;
    if (c === 'EROFS' || c === 'EACCES' || c === 'EPERM') {
      const e = new Error(`cannot create ${out}`) as NodeJS.ErrnoException;
      e.code = c;
      e.syscall = 'mkdir';
      e.path = out;
      return e;
    }
  }
  return err;
}

/** File systems that hold no files of ours: the kernel's views of processes, devices and settings (statfs magic numbers). */
const SPECIAL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x73636673, 'securityfs'],
  [0x1cd1, 'devpts'],
  [0x74726163, 'tracefs'],
  [0xcafe4a11, 'bpf'],
]);

/**
 * Refuses an output folder on a special file system (`/proc`, `/sys`, `/dev` …) at once with one
 * line: nothing of a run can be written there, and Node's recursive mkdir under `/proc` never
 * returns. The nearest existing folder of `out` is asked (`statfs`); `/dev` is refused by its path
 * (its devtmpfs reports the same kind as an ordinary tmpfs such as `/tmp`; `/dev/shm` is one of those and is allowed).
 */
export function refuseSpecialFolder(out: string, what = '--out'): void {
  const base = nearestExisting(out);
  const say = (kind: string): never => {
    throw new SpaceActError('io', `${what} ${out}: ${base} is on a special file system (${kind}), where nothing can be written; choose a folder on a disk`, { path: out });
  };
  const under = (dir: string): boolean => base === dir || base.startsWith(`${dir}/`);
  if (under('/dev') && !under('/dev/shm')) say('devtmpfs');
  let type: number;
  try {
    type = Number(statfsSync(base).type);
  } catch {
    return;
  }
  const kind = SPECIAL_FILE_SYSTEMS.get(type);
  if (kind) say(kind);
}
