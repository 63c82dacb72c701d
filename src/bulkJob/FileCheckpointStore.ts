/// <reference types="node" />
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { BulkResumeToken } from "../types.js";
import type {
  Checkpoint,
  CheckpointStore,
  JobLease,
  JobOutcome,
  WindowIntent,
  WrittenMark,
} from "./CheckpointStore.js";
import type { CheckpointRecord } from "./CheckpointRecord.js";
import { CheckpointFileError } from "./CheckpointFileError.js";
import { LeaseHeldError } from "./LeaseHeldError.js";
import { parseCheckpointRecord } from "./parseCheckpointRecord.js";
import { replayCheckpoint } from "./replayCheckpoint.js";

/** How a record's line starts (`type` is written first): a torn last line starts so too. */
const RECORD_STARTS = ["intent", "group", "refused", "written", "end"].map(
  (type) => `{"type":"${type}",`
);

/** The problem of a line that is not JSON. */
const NOT_JSON = "not JSON";

/** Characters of a bad line shown in a `CheckpointFileError`. */
const EXCERPT_LENGTH = 40;

/** What the lease file holds. */
interface LeaseFile {
  owner: string;
  expiresAt: number;
}

/**
 * A durable checkpoint store in one file (Node only, from `spellrun/node`): each record a JSON
 * line, appended and synced to disk before the engine goes on (an intent is on disk before its
 * bulkStart leaves). A torn last line (a kill mid-write: no line end, the start of a record) is
 * skipped on load and cut off before the next record is appended (a whole last record without
 * its line end is given one). Every other line must be a record the engine writes
 * (`parseCheckpointRecord`): a file that is not a checkpoint (its first line is not a record) or
 * has a bad line is refused with `CheckpointFileError` by `load()`, `acquireLease` and the first
 * record of a run, before anything is sent or appended.
 *
 * Its lease is a file beside it (`<path>.lease`) created with `O_EXCL` and holding the owner and
 * the expiry: a second worker gets `LeaseHeldError` until it expires. A lease past its expiry (its
 * worker died) is taken over. Two workers taking over the same dead worker's lease in the same
 * instant is the one race a plain file cannot close; each renewal checks the owner, so the loser
 * stops at its next window. For workers on several machines, use a database (docs/library.md).
 *
 * ## Example
 * ```ts
 * import { FileCheckpointStore } from "spellrun/node";
 * const store = new FileCheckpointStore("jobs/summaries.checkpoint");
 * const job = new BulkJobRunner({ ...options, store, resume: store.load() });
 * ```
 */
export class FileCheckpointStore implements CheckpointStore {
  /** The lease file. */
  readonly leasePath: string;

  /**
   * @param path the checkpoint file (created on the first record, with its folder when missing)
   * @param now the lease's clock
   */
  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now
  ) {
    this.leasePath = `${path}.lease`;
  }

  /**
   * Every record of the file, oldest first, without a torn last line.
   * @throws CheckpointFileError when a line other than a torn last one is not a record
   */
  records(): CheckpointRecord[] {
    return this.read().records;
  }

  /**
   * The checkpoint of the file; undefined when it has no record.
   * @throws CheckpointFileError when the file is not a checkpoint or has a bad line
   */
  load(): Checkpoint | undefined {
    const records = this.records();
    return records.length === 0 ? undefined : replayCheckpoint(records);
  }

  /** @param intent the window about to be sent */
  recordIntent(intent: WindowIntent): void {
    this.append({ type: "intent", ...intent });
  }

  /** @param window the window @param groupId its group @param token the core's resume token */
  recordGroup(window: number, groupId: string, token?: BulkResumeToken): void {
    this.append({ type: "group", window, groupId, ...(token ? { token } : {}) });
  }

  /** @param window the window whose start the service refused */
  recordRefused(window: number): void {
    this.append({ type: "refused", window });
  }

  /** @param mark the written mark */
  recordWritten(mark: WrittenMark): void {
    const { alsoWritten, ...rest } = mark;
    this.append({
      type: "written",
      ...rest,
      ...(alsoWritten && alsoWritten.length > 0 ? { alsoWritten: [...alsoWritten] } : {}),
    });
  }

  /** @param outcome how the run ended @param rows rows written */
  recordEnd(outcome: JobOutcome, rows: number): void {
    this.append({ type: "end", outcome, rows });
  }

  /** @param lease who takes or renews the lease, for how long */
  acquireLease(lease: JobLease): void {
    // A file that is not a checkpoint is refused before a lease file is made beside it.
    if (!this.checked) this.read();
    const now = this.now();
    const mine: LeaseFile = { owner: lease.owner, expiresAt: now + lease.ttlMs };
    const held = this.readLease();
    if (held === undefined) {
      this.makeFolder();
      this.createLease(mine);
      return;
    }
    if (held.lease?.owner === lease.owner) {
      // Renewed by replacing the file whole (a reader never sees half a lease).
      const next = `${this.leasePath}.${process.pid}.tmp`;
      writeWhole(next, JSON.stringify(mine), "w");
      renameSync(next, this.leasePath);
      return;
    }
    if (held.lease && held.lease.expiresAt > now) {
      throw new LeaseHeldError(held.lease.owner, held.lease.expiresAt);
    }
    // Expired, or unreadable (its worker died mid-write): taken over if it is still that file.
    if (readText(this.leasePath) === held.text) unlinkQuiet(this.leasePath);
    this.createLease(mine);
  }

  /** @param owner the worker giving its lease up */
  releaseLease(owner: string): void {
    if (this.readLease()?.lease?.owner === owner) unlinkQuiet(this.leasePath);
  }

  private createLease(lease: LeaseFile): void {
    try {
      writeWhole(this.leasePath, JSON.stringify(lease), "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // Another worker created it first.
      const held = this.readLease()?.lease;
      throw new LeaseHeldError(held?.owner, held?.expiresAt);
    }
  }

  private readLease(): { text: string; lease?: LeaseFile } | undefined {
    const text = readText(this.leasePath);
    if (text === undefined) return undefined;
    try {
      const value = JSON.parse(text) as Partial<LeaseFile>;
      if (typeof value.owner === "string" && typeof value.expiresAt === "number") {
        return { text, lease: { owner: value.owner, expiresAt: value.expiresAt } };
      }
    } catch {
      // Unreadable: treated as expired.
    }
    return { text };
  }

  /** True once this store has read the file whole and found it a checkpoint. */
  private checked = false;
  /** True once a torn last line, if any, was cut off (this store appends after whole lines). */
  private appendable = false;

  /** Reads and checks the file (absent: no record). */
  private read(): { records: CheckpointRecord[]; wholeBytes?: number; unended?: boolean } {
    const text = readText(this.path);
    if (text === undefined) {
      this.checked = true;
      return { records: [] };
    }
    const records: CheckpointRecord[] = [];
    const lines = text.split("\n");
    // The text after the last line end: "" when the file ends with a whole line.
    const last = lines.pop() as string;
    lines.forEach((line, place) => {
      records.push(this.parseLine(line, place + 1));
    });
    let wholeBytes: number | undefined;
    let unended = false;
    if (last !== "") {
      const parsed = parseLine(last);
      if (parsed.ok) {
        // A whole record without its line end (the kill came before it).
        records.push(parsed.record);
        unended = true;
      } else if (isTorn(last, parsed.problem)) {
        // A torn line: the kill came mid-write, the record was not made.
        wholeBytes = Buffer.byteLength(text) - Buffer.byteLength(last);
      } else this.refuse(last, lines.length + 1, parsed.problem);
    }
    this.checked = true;
    return { records, ...(wholeBytes === undefined ? {} : { wholeBytes }), unended };
  }

  private parseLine(line: string, number: number): CheckpointRecord {
    const parsed = parseLine(line);
    if (!parsed.ok) this.refuse(line, number, parsed.problem);
    return parsed.record;
  }

  private refuse(line: string, number: number, problem: string): never {
    throw new CheckpointFileError(this.path, number, problem, line.slice(0, EXCERPT_LENGTH));
  }

  /**
   * Creates the checkpoint's folder (and its parents) when it is missing, so that
   * `jobs/x.checkpoint` works in a fresh checkout. A folder that cannot be made throws node's
   * error, which names it (`EACCES: permission denied, mkdir 'jobs'`).
   */
  private makeFolder(): void {
    mkdirSync(dirname(this.path), { recursive: true });
  }

  private append(record: CheckpointRecord): void {
    if (!this.appendable) {
      this.makeFolder();
      // The file is checked before this store adds to it, and a torn last line is cut off (a
      // record appended after it would join it into one bad line).
      const { wholeBytes, unended } = this.read();
      if (wholeBytes !== undefined) truncateSync(this.path, wholeBytes);
      this.appendable = true;
      if (unended) {
        writeWhole(this.path, `\n${JSON.stringify(record)}\n`, "a");
        return;
      }
    }
    writeWhole(this.path, `${JSON.stringify(record)}\n`, "a");
  }
}

/** Writes `text` through a file opened with `flags`, synced to disk before it returns. */
function writeWhole(path: string, text: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A line's record, or why it is not one. */
function parseLine(
  line: string
): { ok: true; record: CheckpointRecord } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: line === "" ? "an empty line" : NOT_JSON };
  }
  return parseCheckpointRecord(value);
}

/** True for the start of a record cut short: not JSON, and begun as a record begins. */
function isTorn(line: string, problem: string): boolean {
  return (
    problem === NOT_JSON &&
    RECORD_STARTS.some((start) => start.startsWith(line) || line.startsWith(start))
  );
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
