import { closeSync, fdatasyncSync, ftruncateSync, statSync, writeSync } from "node:fs";
import { CliError } from "../errors/CliError.js";
import { terminalText } from "../errors/terminalText.js";
import { openPrivateFile, refuseSymbolicLink } from "./openPrivateFile.js";

/**
 * The output of a bulk job: a file appended with synchronous writes (so `bytes` is exactly what
 * is on disk after `sync`), or stdout for `-o -`. Synchronous writes also keep memory flat: a
 * slow disk slows the job down instead of queueing rows in memory.
 *
 * ## Example
 * ```ts
 * const output = OutputFile.create("out.csv");
 * output.write("text,status\n");
 * output.sync();
 * output.close();
 * ```
 */
export class OutputFile {
  private constructor(
    readonly path: string,
    private fd: number | undefined,
    private size: number
  ) {}

  /**
   * Creates the output file (0600, never through a symbolic link); `-` writes to stdout. An
   * existing file is replaced only when `replace` says it is this command's own (or `--force`).
   * @param path the file path, or `-`
   * @param replace whether an existing file may be emptied
   * @return the output
   */
  static create(path: string, replace = false): OutputFile {
    if (path === "-") return new OutputFile(path, undefined, 0);
    return new OutputFile(path, openPrivateFile(path, replace ? "replace" : "create"), 0);
  }

  /**
   * Reopens an output file to continue it: anything after `bytes` (rows written after the
   * journal's last `written` record) is cut off, since those rows will be written again.
   * @param path the file path
   * @param bytes the length the journal vouches for
   * @return the output
   */
  static resume(path: string, bytes: number): OutputFile {
    refuseSymbolicLink(path);
    let size: number;
    try {
      size = statSync(path).size;
    } catch (error) {
      throw new CliError(`Cannot resume into ${path}: ${(error as Error).message}`);
    }
    if (size < bytes) {
      throw new CliError(
        `${path} is shorter (${size} bytes) than the journal says (${bytes} bytes): it was changed after the job wrote it`
      );
    }
    const fd = openPrivateFile(path, "update");
    ftruncateSync(fd, bytes);
    closeSync(fd);
    return new OutputFile(path, openPrivateFile(path, "append"), bytes);
  }

  /** Bytes written so far (the file's length). */
  get bytes(): number {
    return this.size;
  }

  /**
   * Appends text. On stdout, a terminal gets it without control characters (a spell's output
   * could clear the screen or set the window title); a pipe or a file gets it exact.
   * @param text the text
   */
  write(text: string): void {
    if (text === "") return;
    if (this.fd === undefined) {
      process.stdout.write(process.stdout.isTTY ? terminalText(text) : text);
    } else {
      writeSync(this.fd, text);
    }
    this.size += Buffer.byteLength(text);
  }

  /** Flushes the written text to disk (no-op for stdout). */
  sync(): void {
    if (this.fd !== undefined) fdatasyncSync(this.fd);
  }

  /** Flushes and closes the file. */
  close(): void {
    if (this.fd === undefined) return;
    fdatasyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }
}
