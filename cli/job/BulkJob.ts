import type { Observable, Subscription } from "rxjs";
import { SpellHttpError, type BulkRunEntry, type BulkSnapshot, type SpellClient } from "spellrun";
import { CliError } from "../errors/CliError.js";
import { formatHeader, formatRows, type FinishedRow, type RowStatus } from "./formatRows.js";
import { toSpellInputs } from "../table/InputMapping.js";
import type { Journal } from "./Journal.js";
import type { JobOutcome, JobRecord } from "./JournalRecord.js";
import type { OutputFile } from "../table/OutputFile.js";
import { chooseOutputLayout, type OutputLayout } from "../table/OutputLayout.js";
import type { JobProgress } from "./ProgressReporter.js";
import type { InputRow, InputTable } from "../table/readInputRows.js";

/**
 * What the journal already knows of a window when a job is resumed: its size, and its group id
 * unless the process died between the intent and bulkStart's answer.
 *
 * ## Example
 * ```ts
 * const known: KnownWindow = { count: 500, groupId: "bulk_3_ab12" };
 * ```
 */
export interface KnownWindow {
  count: number;
  groupId?: string;
}

/**
 * Everything a bulk job needs. A new job has no `layout`, `startRow` 0 and no known windows; a
 * resumed one takes them from the journal.
 *
 * ## Example
 * ```ts
 * new BulkJob({ client, job, table, journal, output, startRow: 0, knownWindows: new Map(), ... });
 * ```
 */
export interface BulkJobOptions {
  client: SpellClient;
  job: JobRecord;
  table: InputTable;
  /** Absent when the output is stdout (then the job cannot be resumed). */
  journal: Journal | undefined;
  output: OutputFile;
  layout?: OutputLayout;
  /** Rows already in the output (resume). */
  startRow: number;
  /** Statuses of those rows (resume). */
  startCounts?: Partial<Record<RowStatus, number>>;
  knownWindows: Map<number, KnownWindow>;
  /** Start runs again for windows whose bulkStart may or may not have reached the service. */
  rerunUnknown: boolean;
  /** Windows held at once: submitted, running, or finished and waiting to be written. */
  maxWindows: number;
}

/**
 * How a job run ended.
 *
 * ## Example
 * ```ts
 * if (result.outcome === "complete" && result.counts.success === result.rows) console.log("all ok");
 * ```
 */
export interface BulkJobResult {
  outcome: JobOutcome;
  /** Rows in the output, including those written before a resume. */
  rows: number;
  /** Rows in the output per status (the whole job, across resumes). */
  counts: Partial<Record<RowStatus, number>>;
  /** The error that stopped the job (input or service), if any. */
  error?: unknown;
}

interface Window {
  index: number;
  firstRow: number;
  rows: InputRow[];
  /** Latest state of every row; undefined until the first snapshot. */
  runs: readonly (BulkRunEntry | Finished)[] | undefined;
  /** Rows of this window already in the output. */
  written: number;
  groupId?: string;
  subscription?: Subscription;
}

interface Finished {
  state: RowStatus;
  outputs: Record<string, unknown>;
}

const JOURNAL_WRITTEN_EVERY_MS = 500;

const NOT_RECORDED: Finished = Object.freeze({
  state: "unknown",
  outputs: Object.freeze({
    error:
      "Submitted just before the job was killed, its bulk run id never recorded: not run again (spellrun resume --rerun-unknown starts it again)",
  }),
}) as Finished;

const CANCELLED: Finished = Object.freeze({
  state: "cancelled",
  outputs: Object.freeze({ error: "Cancelled (Ctrl-C)" }),
}) as Finished;

/**
 * Runs one spell over a streamed table, one bulk run (window) per `chunkSize` rows, at most
 * `maxWindows` windows held at once, and writes finished rows to the output in input order as
 * soon as the prefix before them is complete. Memory is bounded by `maxWindows × chunkSize`
 * rows, whatever the length of the input.
 *
 * The journal makes it crash-safe: an `intent` is fsynced before a window's bulkStart, its
 * `group` as soon as the service answers, `written` after the output is flushed. `interrupt()`
 * (Ctrl-C) unsubscribes every unfinished window, which makes the core send one cancelBulk per
 * unfinished group, and writes every row, finished or cancelled.
 *
 * ## Example
 * ```ts
 * const job = new BulkJob(options);
 * process.once("SIGINT", () => job.interrupt());
 * const result = await job.run((progress) => reporter.update(progress));
 * ```
 */
export class BulkJob {
  private readonly queue: Window[] = [];
  private layout: OutputLayout | undefined;
  private writtenRows: number;
  private readonly counts: Partial<Record<RowStatus, number>>;
  private active = 0;
  private unjournaledWindows = 0;
  private journaledAt = 0;
  private reportedAt = 0;
  private stopping = false;
  private interrupted = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  private onProgress: (progress: JobProgress) => void = () => undefined;

  constructor(private readonly options: BulkJobOptions) {
    this.layout = options.layout;
    this.writtenRows = options.startRow;
    this.counts = { ...options.startCounts };
  }

  /**
   * Runs the job to its end (complete, interrupted, or stopped by an error).
   * @param onProgress called after every change
   * @return the outcome and counts
   */
  async run(onProgress?: (progress: JobProgress) => void): Promise<BulkJobResult> {
    if (onProgress) this.onProgress = onProgress;
    let inputError: unknown;
    try {
      for await (const window of this.windows()) {
        while (!this.stopping && this.queue.length >= this.options.maxWindows) await this.sleep();
        if (this.stopping) break;
        this.start(window);
      }
    } catch (error) {
      inputError = error;
      this.stopping = true;
    }
    while (this.active > 0) await this.sleep();
    this.flush();
    // An input with a header and no rows still gets its header.
    if (!this.layout && this.queue.length === 0 && inputError === undefined) this.writeLayout([]);
    const outcome: JobOutcome = this.interrupted
      ? "interrupted"
      : inputError !== undefined
        ? "input-error"
        : this.failure !== undefined || this.queue.length > 0
          ? "service-error"
          : "complete";
    this.options.journal?.append({ type: "end", outcome, rows: this.writtenRows });
    this.report();
    return {
      outcome,
      rows: this.writtenRows,
      counts: this.counts,
      error: inputError ?? this.failure,
    };
  }

  /**
   * Ctrl-C: stops reading, unsubscribes every unfinished window (one cancelBulk per unfinished
   * group, sent by the core), and lets `run` write every row and return `interrupted`.
   */
  interrupt(): void {
    if (this.interrupted) return;
    this.interrupted = true;
    this.stopping = true;
    for (const window of this.queue) {
      if (window.subscription && !window.subscription.closed) {
        window.subscription.unsubscribe();
        this.active--;
        window.runs = (window.runs ?? new Array<Finished>(window.rows.length).fill(CANCELLED)).map(
          (run) => (isFinished(run) ? run : CANCELLED)
        );
      }
    }
    this.flush();
    this.poke();
  }

  /** Where the job stands now. */
  progress(): JobProgress {
    let running = 0;
    for (const window of this.queue) {
      for (let index = window.written; index < window.rows.length; index++) {
        const run = window.runs?.[index];
        if (run === undefined || !isFinished(run)) running++;
      }
    }
    return {
      written: this.writtenRows,
      total: this.options.job.total,
      counts: this.counts,
      running,
    };
  }

  private async *windows(): AsyncGenerator<Window> {
    const { chunkSize } = this.options.job;
    let rows: InputRow[] = [];
    let rowNumber = 0;
    let index = 0;
    for await (const row of this.options.table.rows) {
      if (this.stopping) return;
      rows.push(row);
      rowNumber++;
      if (rows.length === chunkSize) {
        if (rowNumber > this.options.startRow) yield this.window(index, rows);
        rows = [];
        index++;
      }
    }
    if (rows.length > 0 && rowNumber > this.options.startRow) yield this.window(index, rows);
  }

  private window(index: number, rows: InputRow[]): Window {
    const firstRow = index * this.options.job.chunkSize;
    return {
      index,
      firstRow,
      rows,
      runs: undefined,
      written: Math.max(0, this.options.startRow - firstRow),
    };
  }

  private start(window: Window): void {
    const { client, job, journal } = this.options;
    const known = this.options.knownWindows.get(window.index);
    if (known && known.count !== window.rows.length) {
      throw new CliError(
        `The input changed since the job started: window ${window.index} had ${known.count} rows, now ${window.rows.length}`
      );
    }
    this.queue.push(window);
    let source: Observable<BulkSnapshot>;
    if (known?.groupId !== undefined) {
      window.groupId = known.groupId;
      source = client.resumeBulk(
        { spellId: job.spellId, groupIds: [known.groupId], chunkSizes: [known.count] },
        known.count
      );
    } else if (known && !this.options.rerunUnknown) {
      window.runs = new Array<Finished>(window.rows.length).fill(NOT_RECORDED);
      this.flush();
      return;
    } else {
      // The money rule: the intent is on disk before the bulkStart can reach the service.
      journal?.append({
        type: "intent",
        window: window.index,
        firstRow: window.firstRow,
        count: window.rows.length,
      });
      const inputs = window.rows.map((row) => toSpellInputs(row.values, job.mapping));
      source = client.bulk(job.spellId, inputs);
    }
    this.active++;
    window.subscription = source.subscribe({
      next: (snapshot) => {
        const groupId = snapshot.groupIds[0];
        if (groupId !== undefined && window.groupId === undefined) {
          window.groupId = groupId;
          journal?.append({ type: "group", window: window.index, groupId });
        }
        window.runs = snapshot.runs;
        this.flush();
      },
      error: (error: unknown) => {
        // A bulkStart the service refused started nothing: resume may send it again.
        if (window.groupId === undefined && refusedStart(error)) {
          journal?.append({ type: "refused", window: window.index });
        }
        this.failure ??= error;
        this.stopping = true;
        this.settle();
      },
      complete: () => this.settle(),
    });
  }

  private settle(): void {
    this.active--;
    this.flush();
    this.poke();
  }

  /** Writes every row whose predecessors are all written; journals completed windows. */
  private flush(): void {
    const finished: FinishedRow[] = [];
    let completedWindows = 0;
    for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
      if (!this.layout && !this.chooseLayout(head)) break;
      const runs = head.runs;
      while (head.written < head.rows.length) {
        const run = runs?.[head.written];
        if (run === undefined || !isFinished(run)) break;
        finished.push({
          values: head.rows[head.written].values,
          status: run.state,
          outputs: run.outputs,
        });
        this.counts[run.state] = (this.counts[run.state] ?? 0) + 1;
        head.written++;
      }
      if (head.written < head.rows.length) break;
      this.queue.shift();
      completedWindows++;
    }
    if (finished.length > 0) {
      this.options.output.write(
        formatRows(finished, this.layout as OutputLayout, this.formatOptions())
      );
      this.writtenRows += finished.length;
    }
    this.unjournaledWindows += completedWindows;
    // A `written` record costs two fsyncs; rows written since the last one are only rewritten
    // (from their recorded groups, never re-run) after a crash, so one every 500 ms is enough.
    const due = Date.now() - this.journaledAt >= JOURNAL_WRITTEN_EVERY_MS || this.stopping;
    if (this.unjournaledWindows > 0 && (due || this.queue.length === 0)) {
      this.unjournaledWindows = 0;
      this.journaledAt = Date.now();
      this.options.output.sync();
      this.options.journal?.append({
        type: "written",
        rows: this.writtenRows,
        bytes: this.options.output.bytes,
        counts: this.counts,
      });
    }
    if (completedWindows > 0) this.poke();
    this.report();
  }

  /** Fixes the CSV columns once the first window has finished (or `--columns` named them). */
  private chooseLayout(head: Window): boolean {
    const { job } = this.options;
    const runs = head.runs;
    if (!job.columns && (runs === undefined || !runs.every(isFinished))) return false;
    this.writeLayout(
      (runs ?? []).filter((run) => run.state === "success").map((run) => run.outputs)
    );
    return true;
  }

  private writeLayout(samples: Record<string, unknown>[]): void {
    this.layout = chooseOutputLayout(
      this.options.table.columns(),
      samples,
      this.options.job.columns
    );
    this.options.output.write(formatHeader(this.layout, this.formatOptions()));
    this.options.output.sync();
    this.options.journal?.append({
      type: "layout",
      layout: this.layout,
      headerBytes: this.options.output.bytes,
    });
  }

  private formatOptions() {
    return { format: this.options.job.outputFormat, csvGuard: this.options.job.csvGuard };
  }

  private report(): void {
    // progress() walks the held rows: a few times a second is plenty for a bar or a log line.
    const now = Date.now();
    if (now - this.reportedAt < 100 && !this.stopping) return;
    this.reportedAt = now;
    this.onProgress(this.progress());
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

function refusedStart(error: unknown): boolean {
  return (
    error instanceof SpellHttpError &&
    error.endpoint === "bulkStart" &&
    error.status >= 400 &&
    error.status < 500
  );
}

function isFinished(run: BulkRunEntry | Finished): run is Finished {
  return run.state !== "pending" && run.state !== "inProgress";
}
