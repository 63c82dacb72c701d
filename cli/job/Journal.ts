import { closeSync, fsyncSync, openSync, readFileSync, ftruncateSync, writeSync } from "node:fs";
import { CliError } from "../errors/CliError.js";
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
   * Starts a new journal (replacing any file at `path`) with its first record.
   * @param path the journal file
   * @param first the job record
   * @return the open journal
   */
  static create(path: string, first: JournalRecord): Journal {
    const journal = new Journal(path, openSync(path, "w"));
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
    const fd = openSync(path, "r+");
    ftruncateSync(fd, validBytes);
    fsyncSync(fd);
    closeSync(fd);
    return { journal: new Journal(path, openSync(path, "a")), records };
  }

  /**
   * Reads a journal's records without opening it for writing (`spellrun status`).
   * @param path the journal file
   * @return the records and the length of the complete lines
   */
  static read(path: string): { records: JournalRecord[]; validBytes: number } {
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
      if (!record) throw new CliError(`${path} line ${records.length + 1} is not a journal record`);
      records.push(record);
      validBytes += Buffer.byteLength(line) + 1;
      start = end + 1;
    }
    // Text after the last newline is a record cut short by a crash: it was never acted on.
    const first = records[0];
    if (!first || first.type !== "job" || first.version !== 1) {
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
