import type { SpellClient } from "../SpellClient.js";
import type { BulkOptions } from "../types.js";
import type { Checkpoint, CheckpointStore, JobOutcome } from "./CheckpointStore.js";
import type { JobFailureKind } from "./classifyJobFailure.js";
import type { ResultWriter } from "./ResultWriter.js";
import type { RowResult, RowStatusCounts } from "./RowResult.js";

/**
 * Where a job's rows come from: every row from row 0, or a function that gives the rows from the
 * one the engine asks for (see `BulkJobOptions.rows`).
 *
 * ## Example
 * ```ts
 * const rows: RowSource<string> = (fromRow) => readLines("input.txt", { skip: fromRow });
 * ```
 */
export type RowSource<Row> =
  AsyncIterable<Row> | Iterable<Row> | ((fromRow: number) => AsyncIterable<Row> | Iterable<Row>);

/**
 * Everything a bulk job needs. A new job has no `resume`; a resumed one passes what its
 * checkpoint store loaded.
 *
 * ## Example
 * ```ts
 * const options: BulkJobOptions<Row> = {
 *   client, spellId: "summarize", rows, inputsOf: (row) => ({ text: row.text }),
 *   windowSize: 500, maxWindows: 4, store: new MemoryCheckpointStore(), writer,
 * };
 * ```
 */
export interface BulkJobOptions<Row> {
  client: Pick<SpellClient, "bulk" | "resumeBulk">;
  spellId: string;
  /**
   * The rows, in input order, as they come (a file streamed, a sheet read in chunks).
   *
   * As a function, the engine calls it once with `fromRow`, the first row it needs (0 for a new
   * job; on a resume the first row of the first window not all written), and reads the rows
   * `fromRow, fromRow + 1, …` from it: rows before `fromRow` are written and are not read again.
   * As an iterable, it must give every row from row 0, even on a resume (the engine skips the
   * written ones). Either way a resume checks the rows against the fingerprints its checkpoint
   * recorded and refuses other rows with a `RowsChangedError`.
   */
  rows: RowSource<Row>;
  /** The spell inputs of a row. */
  inputsOf(row: Row): Record<string, unknown>;
  /**
   * The value a window's fingerprint records for a row (see `WindowIntent.fingerprint`). Rows
   * with equal values cannot be told apart on a resume: add what identifies a row (its id) when
   * its spell inputs may repeat. @default the row's `inputsOf`
   */
  fingerprintOf?(row: Row): unknown;
  /**
   * A result already known (a retry keeps its succeeded rows): the row is not sent. `index` is
   * the row's place in the job (0-based).
   */
  knownResultOf?(row: Row, index: number): RowResult | undefined;
  /** Rows per window; window `w` holds rows `w * windowSize …` and is one bulk run. */
  windowSize: number;
  /** Windows held at once: submitted, running, or finished and waiting to be written. */
  maxWindows: number;
  store: CheckpointStore;
  writer: ResultWriter<Row>;
  /**
   * Options of each window's `bulk`: `reuse` (identical rows share a run; remembered results
   * start nothing), `beforeStart` (a spending guard). The engine adds its own `detach`.
   */
  bulkOptions?: Omit<BulkOptions, "detach"> | undefined;
  /**
   * When finished rows reach the writer: `"input"`, in input order (a file); `"finished"`, as
   * soon as each finishes (a sheet shows results as they come; the written marks then also name
   * the rows written past the first gap). Each row is handed over once either way.
   * @default "input"
   */
  writeOrder?: "input" | "finished" | undefined;
  /** Told where the job stands after each write of rows (rows written, by status). */
  onProgress?(progress: BulkJobProgress): void;
  /** What the store loaded, to continue a job. */
  resume?: Checkpoint | undefined;
  /**
   * Send again a window whose bulkStart may have reached the service without an answer recorded.
   * Its rows may be paid twice: only on the user's explicit choice. @default false
   */
  resendMayHaveStarted?: boolean | undefined;
  /**
   * The `error` output of a row written `unknown`, telling the user how to send it again in this
   * front end. @default a sentence that names no command
   */
  unknownRowReason?: string | undefined;
  /**
   * This worker's name in the store's lease (stores with `acquireLease` only).
   * @default a random id
   */
  leaseOwner?: string | undefined;
  /** How long the lease lasts unless renewed (renewed every third of it). @default 30000 */
  leaseMs?: number | undefined;
  /** Least time between two written marks. @default 500 */
  writtenMarkEveryMs?: number | undefined;
  /** How long a cancel waits for its read of the cancelled groups. @default 10000 */
  cancelReadTimeoutMs?: number | undefined;
  /** Clock of the written-mark throttle. @default Date.now */
  now?: (() => number) | undefined;
}

/**
 * The failure that stopped a job or ended a window, and which rows it concerns.
 *
 * ## Example
 * ```ts
 * if (failure.kind === "mayHaveStarted") console.error(`rows ${failure.firstRow + 1}-… may have started`);
 * ```
 */
export interface JobFailure {
  kind: JobFailureKind;
  error: unknown;
  window: number;
  firstRow: number;
  count: number;
  groupId?: string;
}

/**
 * How a run of a job ended.
 *
 * ## Example
 * ```ts
 * if (result.outcome === "complete" && result.counts.success === result.rows) console.log("all ok");
 * ```
 */
export interface BulkJobResult {
  outcome: JobOutcome;
  /** Rows written, including those written before a resume. */
  rows: number;
  counts: RowStatusCounts;
  /** The service failures that stopped the job, in the order they came (none when it completed). */
  failures: JobFailure[];
  /** Windows whose group expired (their rows are written `expired`). */
  expired: JobFailure[];
  /** The error that stopped the job (input, writer), if not a service failure. */
  error?: unknown;
}

/**
 * Where a job stands.
 *
 * ## Example
 * ```ts
 * console.log(`${progress.written} written, ${progress.running} running (${progress.starting} starting)`);
 * ```
 */
export interface BulkJobProgress {
  /** Rows written (the writer's write resolved), including those written before a resume. */
  written: number;
  /**
   * Rows of started windows without a result yet (`starting` included). Rows whose start the
   * service refused (nothing was started: a 413, a 400, a service down) are not among them.
   */
  running: number;
  /** Of `running`, the rows whose bulkStart has had no answer yet: not started at the service. */
  starting: number;
  /** Rows whose bulkStart the service refused (see `startedNothing`): never started. */
  refused: number;
  /** Rows written, by status. */
  counts: RowStatusCounts;
}
