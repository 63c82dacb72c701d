import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { InputError } from "../errors/InputError.js";
import { UsageError } from "../errors/UsageError.js";

/**
 * What a job's input file was when the job began: its size, modification time and the SHA-256
 * of its bytes. Kept in the journal so that `resume` and `retry` refuse an input that changed
 * (rows are matched to results by their place: a changed file would give rows the results of
 * others, or start rows again).
 *
 * ## Example
 * ```ts
 * const fingerprint: InputFingerprint = { size: 1200, mtimeMs: 1764130000000, sha256: "9f86…" };
 * ```
 */
export interface InputFingerprint {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/**
 * Fingerprints an input file, opened without following a symbolic link (`O_NOFOLLOW`: a link
 * planted in place of the input would send another file's contents to the service).
 *
 * ## Example
 * ```ts
 * const fingerprint = fingerprintInput("data/in.csv");
 * ```
 * @param path the input file
 * @return its fingerprint
 * @throws InputError when it cannot be read or is a symbolic link
 */
export function fingerprintInput(path: string): InputFingerprint {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      path,
      undefined,
      code === "ELOOP"
        ? "a symbolic link: refused (name the file itself, so that no link decides what is sent)"
        : `cannot read: ${(error as Error).message}`,
      { cause: error }
    );
  }
  try {
    const stat = fstatSync(fd);
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      hash.update(buffer.subarray(0, read));
    }
    return { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs), sha256: hash.digest("hex") };
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses an input whose bytes are not those the job began with, saying what changed (size,
 * modification time, content). A file only touched (same bytes) is the same input.
 *
 * ## Example
 * ```ts
 * checkInputUnchanged("data/in.csv", job.inputFingerprint); // UsageError when edited
 * ```
 * @param path the input file
 * @param recorded the journal's fingerprint of it
 * @param hint what the user may do instead, appended to the message
 * @throws UsageError naming what changed
 */
export function checkInputUnchanged(
  path: string,
  recorded: InputFingerprint,
  // bulk refuses an output whose journal holds an unfinished job: a new job needs another -o.
  hint = "start a new job with spellrun bulk and another output (-o): this job's journal keeps its own"
): void {
  const now = fingerprintInput(path);
  if (now.sha256 === recorded.sha256 && now.size === recorded.size) return;
  const changes = [
    now.size === recorded.size ? undefined : `size ${recorded.size} → ${now.size} bytes`,
    now.mtimeMs === recorded.mtimeMs
      ? undefined
      : `modified ${new Date(recorded.mtimeMs).toISOString()} → ${new Date(now.mtimeMs).toISOString()}`,
    "content (SHA-256) differs",
  ].filter((change) => change !== undefined);
  throw new UsageError(
    `${path} changed since the job began (${changes.join(", ")}): refused, nothing was sent (its rows would no longer match the journal). Restore the file, or ${hint}`
  );
}
