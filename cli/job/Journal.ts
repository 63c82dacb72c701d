import { closeSync, fsyncSync, readFileSync, ftruncateSync, writeSync } from "node:fs";
import { CliError } from "../errors/CliError.js";
import { openPrivateFile, refuseSymbolicLink } from "../table/openPrivateFile.js";
import type { JournalRecord } from "./JournalRecord.js";
import { parseJournalRecord } from "./parseJournalRecord.js";

/**
 * The append-only journal of a bulk job, one JSON record per line. Every `append` is written
 * and fsynced before it returns, so a record the job acted on survives kill -9 and power loss.
 * A torn last line (the process died mid-write) is dropped when the journal is opened again.
 *
 * ## Example
 * ```ts
 * const journal = Journal.create("out.csv.journal", job);
 * journal.append({ type: "intent", window: 0, firstRow: 0, count: 500 });
 * journal.close();
 * ```
 */
export class Journal {
  private constructor(
    readonly path: string,
    private fd: number | undefined
  ) {}

  /**
   * Starts a new journal with its first record: created 0600, never through a symbolic link;
   * a file already at `path` is replaced only when `replace` says it is a journal of ours.
   * @param path the journal file
   * @param first the job record
   * @param replace whether an existing file may be replaced
   * @return the open journal
   */
  static create(path: string, first: JournalRecord, replace = false): Journal {
    const journal = new Journal(path, openPrivateFile(path, replace ? "replace" : "create"));
    journal.append(first);
    return journal;
  }

  /**
   * Reads a journal and opens it for appending. A torn last line is cut off first.
   * @param path the journal file
   * @return the open journal and its records
   */
  static open(path: string): { journal: Journal; records: JournalRecord[] } {
    const { records, validBytes } = Journal.read(path);
    const fd = openPrivateFile(path, "update");
    ftruncateSync(fd, validBytes);
    fsyncSync(fd);
    closeSync(fd);
    return { journal: new Journal(path, openPrivateFile(path, "append")), records };
  }

  /**
   * Reads a journal's records without opening it for writing (`spellrun status`).
   * @param path the journal file
   * @return the records and the length of the complete lines
   */
  static read(path: string): { records: JournalRecord[]; validBytes: number } {
    // A link would let the journal's "own location" (where the output goes) be somewhere else.
    refuseSymbolicLink(path);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new CliError(`Cannot read the journal ${path}: ${(error as Error).message}`);
    }
    const records: JournalRecord[] = [];
    let validBytes = 0;
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      const line = text.slice(start, end);
      const record = parseJournalRecord(line);
      if (!record) {
        throw new CliError(
          `${path} line ${records.length + 1} is not a journal record (${problemOf(line)})`
        );
      }
      records.push(record);
      validBytes += Buffer.byteLength(line) + 1;
      start = end + 1;
    }
    // Text after the last newline is a record cut short by a crash: it was never acted on.
    const first = records[0];
    if (!first) {
      // A kill between creating the file and its first (job) record: nothing was sent then.
      throw new CliError(
        `${path} holds no job record: the command that created it was stopped before it started any run. Delete it to start over (the output beside it holds no row; bulk replaces it with --force)`
      );
    }
    if (first.type !== "job" || first.version !== 1) {
      throw new CliError(`${path} is not a spellrun journal`);
    }
    return { records, validBytes };
  }

  /**
   * This journal's records as its file holds them now.
   * @return the records, the job record first
   */
  records(): JournalRecord[] {
    return Journal.read(this.path).records;
  }

  /**
   * Appends one record and flushes it to disk.
   * @param record the record
   */
  append(record: JournalRecord): void {
    if (this.fd === undefined) throw new CliError(`The journal ${this.path} is closed`);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  /** Closes the file; later appends throw. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Why a line is not a record this version reads, for the message that names the line. */
function problemOf(line: string): string {
  try {
    const value = JSON.parse(line) as { type?: unknown; version?: unknown } | null;
    if (value?.type === "job" && value.version !== 1) {
      return `a job record of format version ${JSON.stringify(value.version)}; this spellrun reads version 1`;
    }
    if (value && typeof value === "object" && typeof value.type === "string") {
      return `a "${value.type}" record with a field missing, of the wrong type or out of bounds`;
    }
  } catch {
    return "not JSON";
  }
  return "no record type this version writes";
}
