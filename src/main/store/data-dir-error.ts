// Problems with the data directory, said in one line a user can act on: which file, what is wrong with
// it, and what to do. The CLI prints that line and exits 1; the desktop app shows it in its window.
import { statSync } from 'node:fs';
import path from 'node:path';

/** What to use instead of the troubled directory, for both the CLI and the desktop app. */
export const ELSEWHERE =
  'or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory';

export class DataDirError extends Error {
  constructor(
    /** the file or directory at fault, absolute when known */
    readonly file: string,
    /** what is wrong with it, e.g. `is not valid JSON (Unexpected token …)` */
    readonly problem: string,
    /** what the user can do, e.g. `fix it or move it away` */
    readonly fix: string,
  ) {
    super(`${file} ${problem}: ${fix}`);
    this.name = 'DataDirError';
  }

  /**
   * The same problem, with what to use instead of the directory said in the words of whoever started the
   * sandbox (the package's options rather than the CLI's flags).
   */
  otherwise(elsewhere: string): DataDirError {
    return new DataDirError(this.file, this.problem, this.fix.replace(ELSEWHERE, elsewhere));
  }
}

/** What was being done to the file when the system call failed, for the message. */
export type DataDirAction = 'read' | 'write' | 'create';

/**
 * Turn an fs error on `file` (inside the data directory) into a DataDirError; errors that already are
 * one pass through. Unknown codes keep the system's own words, so nothing is hidden.
 */
export function dataDirFailure(file: string, err: unknown, action: DataDirAction): DataDirError {
  if (err instanceof DataDirError) return err;
  const e = err as NodeJS.ErrnoException;
  const code = e?.code;
  const dir = path.dirname(file);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return new DataDirError(
        file,
        `cannot be ${action === 'read' ? 'read' : 'written'}: permission denied (${code})`,
        `give the user running the sandbox read and write access to ${dir}, ${ELSEWHERE}`,
      );
    case 'EROFS':
      return new DataDirError(
        file,
        `cannot be written: the file system is read-only (EROFS)`,
        `put the data directory on a writable disk, ${ELSEWHERE}`,
      );
    case 'ENOSPC':
    case 'EDQUOT':
      return new DataDirError(
        file,
        `cannot be written: the disk is full (${code})`,
        `free some space on that disk, ${ELSEWHERE}`,
      );
    case 'EISDIR':
      return new DataDirError(
        file,
        'is a directory where the sandbox keeps a file (EISDIR)',
        `move that directory away, ${ELSEWHERE}`,
      );
    case 'ENOTDIR': {
      const blocker = fileInTheWay(file);
      return new DataDirError(
        blocker,
        'is a file where the sandbox needs a directory (ENOTDIR)',
        `move that file away, ${ELSEWHERE}`,
      );
    }
    default: {
      const why = code ? `${code}: ${stripCode(e.message, code)}` : String(e?.message ?? err);
      return new DataDirError(
        file,
        `cannot be ${action === 'read' ? 'read' : action === 'create' ? 'created' : 'written'} (${why})`,
        `check the file and its directory, ${ELSEWHERE}`,
      );
    }
  }
}

/**
 * An error from opening the sandbox's files: fs errors (they carry `syscall`) on a path become
 * DataDirErrors naming that path (a temp file by the name of the file it stands for); anything else,
 * a bug for instance, passes through unchanged.
 */
export function asDataDirError(
  err: unknown,
  action: DataDirAction = 'write',
  /** the file being written when the error carries no path (a write on an open file handle) */
  fallbackFile?: string,
): unknown {
  if (err instanceof DataDirError) return err;
  const e = err as NodeJS.ErrnoException | null;
  if (!e || typeof e.syscall !== 'string') return err;
  const at = e.path ?? fallbackFile;
  if (at === undefined) return err;
  const base = path.basename(at).replace(/\.tmp$/, '');
  const file = path.join(
    path.dirname(path.resolve(at)),
    base.startsWith('.') ? base.slice(1) : base,
  );
  return dataDirFailure(file, err, action);
}

/** The nearest ancestor of `p` that exists but is not a directory (what ENOTDIR is about). */
function fileInTheWay(p: string): string {
  for (let cur = p; ;) {
    try {
      if (!statSync(cur).isDirectory()) return cur;
    } catch {
      /* missing or unreachable: look further up */
    }
    const up = path.dirname(cur);
    if (up === cur) return p;
    cur = up;
  }
}

/** node's messages repeat the code and the path: "EACCES: permission denied, open '/x'" → "permission denied". */
function stripCode(message: string, code: string): string {
  return message.replace(`${code}: `, '').replace(/, \w+ '.*'$/, '');
}

/**
 * A reset whose commit point (the journal's reset record) was stored, but a part after it failed (a full
 * disk while the feeds were put back to the fixtures): the reset stands, and the answer says what did not
 * follow it rather than that nothing was stored.
 */
export class ResetNotFinished extends Error {
  constructor(cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      `the reset is stored (the events it names are forgotten, and stay so after a restart), but what follows it could not be done: ${why}; once that is fixed, send the same reset again to finish it (the next start finishes it too)`,
      { cause },
    );
    this.name = 'ResetNotFinished';
  }
}

/** The data directory's problem behind `err` (itself, or its cause), if it is one. */
export function storageCause(err: unknown): DataDirError | null {
  if (err instanceof DataDirError) return err;
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause instanceof DataDirError ? cause : null;
}
