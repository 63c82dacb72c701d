import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { CliError } from "../errors/CliError.js";
import { EXIT_CODES } from "../errors/exitCodes.js";

/** What a lock file holds: who owns the journal, to name them and to tell a stale lock. */
export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * The lock of one journal: `<journal>.lock`, created exclusively (`O_EXCL`, never through a
 * link, 0600) and holding the owner's pid, host and start time. Two commands of one job at once
 * (a cron `resume` and a manual one, two `bulk`s into one output) would start every remaining
 * row twice; the second one refuses at once instead (exit code 6).
 *
 * A lock left by a process that is gone (kill -9, a power cut) is taken over when its owner
 * ran on this host and its pid no longer runs. The takeover itself is guarded by a second
 * exclusive file (`<journal>.lock.takeover`), so two commands that find the same stale lock
 * never both take it. A lock of another host is never taken: its owner cannot be checked.
 *
 * ## Example
 * ```ts
 * const lock = JournalLock.acquire("out.csv.journal"); // CliError (exit 6) when held
 * try { ... } finally { lock.release(); }
 * ```
 */
export class JournalLock {
  private held = true;
  private readonly onExit = (): void => this.release();

  private constructor(readonly path: string) {
    // Released on every way out, including process.exit on a second Ctrl-C.
    process.on("exit", this.onExit);
  }

  /**
   * Takes the lock of a journal, or refuses.
   * @param journalPath the journal file
   * @return the held lock
   * @throws CliError (exit code 6) when another live command holds it
   */
  static acquire(journalPath: string): JournalLock {
    const path = `${journalPath}.lock`;
    if (tryCreate(path)) return new JournalLock(path);
    const owner = readOwner(path);
    if (owner && isStale(owner)) {
      takeOver(path, owner);
      return new JournalLock(path);
    }
    throw lockedError(journalPath, path, owner);
  }

  /**
   * Who holds the lock of a journal now, without taking it: the owner when a lock is there and
   * its owner may still run (a live pid of this host, any lock of another host, or a lock whose
   * owner cannot be read); undefined when there is no lock or its owner is gone.
   * @param journalPath the journal file
   * @return the owner, `null` when a lock is there whose owner cannot be read, or undefined
   */
  static holder(journalPath: string): LockOwner | null | undefined {
    const path = `${journalPath}.lock`;
    if (!existsSync(path)) return undefined;
    const owner = readOwner(path);
    if (owner === undefined) return null;
    return isStale(owner) ? undefined : owner;
  }

  /** Removes the lock file (once). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    process.off("exit", this.onExit);
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function ownerText(): string {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
  };
  return `${JSON.stringify(owner)}\n`;
}

/** Creates the lock file exclusively; false when one is there. */
function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, CREATE, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new CliError(`Cannot create the journal lock ${path}: ${(error as Error).message}`);
  }
  try {
    writeSync(fd, ownerText());
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const value = JSON.parse(readFileSync(fd, "utf8")) as Partial<LockOwner>;
      if (Number.isSafeInteger(value.pid) && typeof value.host === "string") {
        return {
          pid: value.pid as number,
          host: value.host,
          startedAt: String(value.startedAt ?? "?"),
        };
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    // Unreadable, a link, or cut short: not a lock whose owner can be checked.
  }
  return undefined;
}

/** A lock of this host whose process no longer runs. */
function isStale(owner: LockOwner): boolean {
  if (owner.host !== hostname() || owner.pid <= 0) return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process runs under another user; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function takeOver(path: string, stale: LockOwner): void {
  const guard = `${path}.takeover`;
  if (!tryCreate(guard)) {
    throw new CliError(
      `Another spellrun is taking over the stale lock ${path} (delete ${guard} if no spellrun runs)`,
      EXIT_CODES.locked
    );
  }
  try {
    // Still the same stale owner: nobody took it between our read and the guard.
    const now = readOwner(path);
    if (
      !now ||
      now.pid !== stale.pid ||
      now.host !== stale.host ||
      now.startedAt !== stale.startedAt
    ) {
      throw lockedError(path.slice(0, -".lock".length), path, now);
    }
    unlinkSync(path);
    if (!tryCreate(path)) throw lockedError(path.slice(0, -".lock".length), path, readOwner(path));
  } finally {
    unlinkSync(guard);
  }
}

function lockedError(journalPath: string, path: string, owner: LockOwner | undefined): CliError {
  const who = owner
    ? `spellrun pid ${owner.pid} on ${owner.host}, since ${owner.startedAt}`
    : "another spellrun";
  return new CliError(
    `${journalPath} is in use by ${who}: nothing was started. Wait for it to end; if that process is gone, delete ${path}`,
    EXIT_CODES.locked
  );
}
