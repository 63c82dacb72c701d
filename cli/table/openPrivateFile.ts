import { constants, lstatSync, openSync } from "node:fs";
import { CliError } from "../errors/CliError.js";
import { UsageError } from "../errors/UsageError.js";

/** How a file the command line writes is opened. */
type Opening = "create" | "replace" | "append" | "update";

const FLAGS: Record<Opening, number> = {
  // Exclusive: a file that appeared meanwhile (or was never ours) is not truncated.
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  replace: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
  append: constants.O_WRONLY | constants.O_APPEND,
  update: constants.O_RDWR,
};

/**
 * Opens a file the command line writes (an output, a journal): never through a symbolic link
 * (`O_NOFOLLOW`: a link planted where the output goes would make the job truncate whatever it
 * points at), created readable by the user only (0600: outputs hold the spell's answers), and
 * created exclusively unless the caller knows the file is its own.
 *
 * ## Example
 * ```ts
 * const fd = openPrivateFile("out.csv", "create"); // UsageError if out.csv exists
 * ```
 *
 * @param path The file.
 * @param opening `create` (must not exist), `replace` (ours: truncated), `append` or `update`.
 * @return The file descriptor.
 * @throws CliError for a symbolic link; UsageError when `create` finds a file there.
 */
export function openPrivateFile(path: string, opening: Opening): number {
  try {
    return openSync(path, FLAGS[opening] | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || isSymbolicLink(path)) throw symbolicLinkRefused(path);
    if (code === "EEXIST") {
      throw new UsageError(
        `${path} exists and this command did not write it: pass --force to replace it, or choose another -o file`
      );
    }
    throw new CliError(`Cannot write ${path}: ${(error as Error).message}`);
  }
}

/**
 * Refuses a symbolic link where the command line reads its own state (a journal).
 *
 * ## Example
 * ```ts
 * refuseSymbolicLink("out.csv.journal");
 * ```
 *
 * @param path The file.
 * @throws CliError when `path` is a symbolic link.
 */
export function refuseSymbolicLink(path: string): void {
  if (isSymbolicLink(path)) throw symbolicLinkRefused(path);
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function symbolicLinkRefused(path: string): CliError {
  return new CliError(
    `${path} is a symbolic link: refused (spellrun reads and writes its own files only, never through a link)`
  );
}
