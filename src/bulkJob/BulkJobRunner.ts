import {
  Subject,
  catchError,
  first,
  lastValueFrom,
  of,
  timeout,
  type Observable,
  type Subscription,
} from "rxjs";
import type { SpellClient } from "../client.js";
import {
  TERMINAL_STATES,
  type BulkOptions,
  type BulkResumeToken,
  type BulkRunEntry,
  type BulkSnapshot,
} from "../types.js";
import type {
  Checkpoint,
  CheckpointStore,
  JobOutcome,
  KnownWindow,
  WrittenMark,
} from "./CheckpointStore.js";
import { classifyJobFailure, type JobFailureKind } from "./classifyJobFailure.js";
import { resumeTokenNeeded } from "./resumeTokenNeeded.js";
import type { ResultWriter } from "./ResultWriter.js";
import type { FinishedJobRow, RowResult, RowStatusCounts } from "./RowResult.js";

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
  /** The rows, in input order, as they come (a file streamed, a sheet read in chunks). */
  rows: AsyncIterable<Row> | Iterable<Row>;
  /** The spell inputs of a row. */
  inputsOf(row: Row): Record<string, unknown>;
  /** A result already known (a retry keeps its succeeded rows): the row is not sent. */
  knownResultOf?(row: Row): RowResult | undefined;
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
  bulkOptions?: Omit<BulkOptions, "detach">;
  /**
   * When finished rows reach the writer: `"input"`, in input order (a file); `"finished"`, as
   * soon as each finishes (a sheet shows results as they come; the written marks then also name
   * the rows written past the first gap). Each row is handed over once either way.
   * @default "input"
   */
  writeOrder?: "input" | "finished";
  /** Told where the job stands after each write of rows (rows written, by status). */
  onProgress?(progress: BulkJobProgress): void;
  /** What the store loaded, to continue a job. */
  resume?: Checkpoint;
  /**
   * Send again a window whose bulkStart may have reached the service without an answer recorded.
   * Its rows may be paid twice: only on the user's explicit choice. @default false
   */
  resendMayHaveStarted?: boolean;
  /**
   * The `error` output of a row written `unknown`, telling the user how to send it again in this
   * front end. @default a sentence that names no command
   */
  unknownRowReason?: string;
  /** Least time between two written marks. @default 500 */
  writtenMarkEveryMs?: number;
  /** How long a cancel waits for its read of the cancelled groups. @default 10000 */
  cancelReadTimeoutMs?: number;
  /** Clock of the written-mark throttle. @default Date.now */
  now?: () => number;
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
 * console.log(`${progress.written} written, ${progress.running} running`);
 * ```
 */
export interface BulkJobProgress {
  /** Rows written (the writer's write resolved), including those written before a resume. */
  written: number;
  /** Rows of started windows without a result yet. */
  running: number;
  /** Rows written, by status. */
  counts: RowStatusCounts;
}

interface Window<Row> {
  index: number;
  firstRow: number;
  rows: Row[];
  /** Rows sent in the bulk (those without a known result), by their place in `rows`. */
  sentRows: number[];
  /** Result of every row; undefined while unknown. Set once (a finished run does not change). */
  results: (RowResult | undefined)[];
  /** Rows with a result. */
  known: number;
  /** Rows given a result since the last flush (`writeOrder: "finished"` hands these over). */
  fresh: number[];
  /** Rows `0 … written - 1` are handed to the writer. */
  written: number;
  /** With `writeOrder: "finished"`: rows past `written` already handed to the writer. */
  handed: Set<number>;
  groupId?: string;
  /** The core's resume token of the window's bulk, once it names a group. */
  token?: BulkResumeToken;
  /**
   * Resumed from a token that names fewer groups than the window has chunks: the runs (by their
   * place among those sent) of the first unnamed chunk, whose bulkStart may have been sent when
   * the job stopped (chunks go out one at a time, so the later ones surely were not).
   */
  unconfirmed?: { from: number; to: number };
  subscription?: Subscription;
  /** Set once the window's bulk completed, failed or was cancelled. */
  settled: boolean;
}

const DEFAULT_WRITTEN_MARK_EVERY_MS = 500;
const DEFAULT_CANCEL_READ_TIMEOUT_MS = 10_000;

const CANCELLED: RowResult = Object.freeze({
  status: "cancelled",
  outputs: Object.freeze({ error: "Cancelled before it finished" }),
}) as RowResult;

const NOT_RECORDED: RowResult = Object.freeze({
  status: "unknown",
  outputs: Object.freeze({
    error:
      "Its bulk run may have been started (no answer was recorded): not sent again, as that may pay for it twice",
  }),
}) as RowResult;

/**
 * Runs one spell over rows that come window by window: one bulk run per `windowSize` rows, at
 * most `maxWindows` held at once, finished rows handed to the `ResultWriter` in input order.
 * Memory is bounded by `maxWindows × windowSize` rows, whatever the number of rows.
 *
 * The one money policy of both front ends lives here:
 * - the intent is in the `CheckpointStore` before a window's bulkStart can leave; its group id
 *   as soon as the service answers; written marks at most every `writtenMarkEveryMs`;
 * - a resumed window with a group is re-attached (`resumeBulk`), never sent again; one whose
 *   start may have happened is written `unknown` unless `resendMayHaveStarted`;
 * - a failure is classified by `classifyJobFailure`: a refused or permanent start is recorded as
 *   refused (a resume sends it); an expired group writes its rows `expired` and the job goes on;
 *   anything else stops the job with its groups recorded, nothing cancelled;
 * - `cancel()`: one cancelBulk per unfinished group (the core's unsubscribe), then the groups
 *   read once more: what finished meanwhile is written, only the rest is marked `cancelled`.
 *
 * ```
 * windows:  w0: intent─group──────────done
 *           w1:   intent─group─────────────done
 * writer:   ─────────────────────rows of w0─rows of w1
 * ```
 *
 * ## Example
 * ```ts
 * const job = new BulkJobRunner(options);
 * process.once("SIGINT", () => void job.cancel());
 * const result = await job.run();
 * ```
 */
export class BulkJobRunner<Row> {
  private readonly queue: Window<Row>[] = [];
  private readonly counts: RowStatusCounts;
  private readonly known: Map<number, KnownWindow>;
  private readonly expired: JobFailure[] = [];
  private readonly now: () => number;
  private readonly finishedOrder: boolean;
  /** Rows written (their write resolved), including those written before a resume. */
  private writtenRows: number;
  /** Rows `0 … writtenPrefix - 1` are all written. */
  private writtenPrefix: number;
  /** With `writeOrder: "finished"`: rows written past `writtenPrefix`. */
  private readonly writtenAfter = new Set<number>();
  private markedRows: number;
  private markedAt = Number.NEGATIVE_INFINITY;
  private stopping = false;
  private cancelled = false;
  private readonly failures: JobFailure[] = [];
  private writeError: { error: unknown } | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Rows handed over and waiting for the next write (one write at a time, the rest folded). */
  private pending: FinishedJobRow<Row>[] = [];
  /** Whether a queued write will take `pending` when it starts. */
  private writeQueued = false;
  /** Writes queued or going on. */
  private writesQueued = 0;
  private cancelling: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Emits when the job can no longer write: the bulks end without cancelling (paid runs go on). */
  private readonly detach$ = new Subject<void>();

  constructor(private readonly options: BulkJobOptions<Row>) {
    if (!(options.windowSize >= 1) || !(options.maxWindows >= 1)) {
      throw new RangeError("BulkJobRunner: windowSize and maxWindows must be at least 1");
    }
    const resume = options.resume;
    this.finishedOrder = options.writeOrder === "finished";
    this.writtenPrefix = resume?.writtenRows ?? 0;
    for (const row of resume?.alsoWritten ?? []) {
      if (row >= this.writtenPrefix) this.writtenAfter.add(row);
    }
    this.writtenRows = this.writtenPrefix + this.writtenAfter.size;
    this.markedRows = this.writtenRows;
    this.counts = { ...resume?.counts };
    this.known = resume?.windows ?? new Map();
    this.now = options.now ?? Date.now;
  }

  /**
   * Runs the job to its end: complete, cancelled, or stopped by a failure.
   * @return the outcome and counts
   */
  async run(): Promise<BulkJobResult> {
    let inputError: { error: unknown } | undefined;
    try {
      for await (const window of this.windows()) {
        while (!this.stopping && this.queue.length >= this.options.maxWindows) await this.sleep();
        if (this.stopping) break;
        await this.start(window);
      }
    } catch (error) {
      inputError = { error };
      this.stopping = true;
    }
    while (this.queue.some((window) => !window.settled)) await this.sleep();
    await this.cancelling;
    this.flush();
    await this.writing;
    const outcome: JobOutcome = this.cancelled
      ? "interrupted"
      : inputError
        ? "input-error"
        : this.writeError
          ? "write-error"
          : this.failures.length > 0 || this.queue.length > 0
            ? "service-error"
            : "complete";
    const { store } = this.options;
    let lastMark: WrittenMark | undefined;
    if (!this.writeError) {
      await this.guard(async () => {
        await this.options.writer.end?.();
        // A store that saves all at once gets the last mark with the end: it saves both at once,
        // or nothing when it forgets a finished job.
        if (!store.savesAllAtOnce) await this.mark(true);
        else if (this.writtenRows !== this.markedRows) {
          await this.options.writer.flush?.();
          lastMark = this.currentMark();
        }
      });
    }
    await store.recordEnd(outcome, this.writtenPrefix, lastMark);
    return {
      outcome,
      rows: this.writtenRows,
      counts: { ...this.counts },
      expired: [...this.expired],
      failures: [...this.failures],
      ...(inputError || this.writeError ? { error: (inputError ?? this.writeError)?.error } : {}),
    };
  }

  /**
   * Cancels the job: stops reading rows, unsubscribes every unfinished window (the core sends one
   * cancelBulk per unfinished group), reads those groups once more, and lets `run` write what
   * finished and mark the rest cancelled. Resolves when that read is over.
   */
  cancel(): Promise<void> {
    if (this.cancelling) return this.cancelling;
    this.cancelled = true;
    this.stopping = true;
    const unfinished = this.queue.filter((window) => !window.settled);
    for (const window of unfinished) {
      window.subscription?.unsubscribe();
      window.settled = true;
    }
    this.cancelling = Promise.all(unfinished.map((window) => this.readAfterCancel(window))).then(
      () => {
        this.flush();
        this.poke();
      }
    );
    this.poke();
    return this.cancelling;
  }

  /** Where the job stands now. */
  progress(): BulkJobProgress {
    let running = 0;
    for (const window of this.queue) running += window.rows.length - window.known;
    return { written: this.writtenRows, running, counts: { ...this.counts } };
  }

  private async *windows(): AsyncGenerator<Window<Row>> {
    const { windowSize } = this.options;
    const startRow = this.options.resume?.writtenRows ?? 0;
    let rows: Row[] = [];
    let rowCount = 0;
    let index = 0;
    for await (const row of this.options.rows) {
      if (this.stopping) return;
      rows.push(row);
      rowCount++;
      if (rows.length === windowSize) {
        if (rowCount > startRow) yield this.window(index, rows, startRow);
        rows = [];
        index++;
      }
    }
    if (rows.length > 0 && rowCount > startRow) yield this.window(index, rows, startRow);
  }

  private window(index: number, rows: Row[], startRow: number): Window<Row> {
    const firstRow = index * this.options.windowSize;
    const results = rows.map((row) => this.options.knownResultOf?.(row));
    const sentRows: number[] = [];
    results.forEach((result, place) => {
      if (result === undefined) sentRows.push(place);
    });
    // Rows written before a resume (out of order) are not handed to the writer again.
    const handed = new Set<number>();
    for (const row of this.writtenAfter) {
      if (row >= firstRow && row < firstRow + rows.length) handed.add(row - firstRow);
    }
    const window: Window<Row> = {
      index,
      firstRow,
      rows,
      sentRows,
      results,
      known: rows.length - sentRows.length,
      // Rows with a known result are handed over with the first flush.
      fresh: results.flatMap((result, place) => (result === undefined ? [] : [place])),
      written: Math.max(0, startRow - firstRow),
      handed,
      settled: false,
    };
    advance(window);
    return window;
  }

  private async start(window: Window<Row>): Promise<void> {
    const { client, spellId, store } = this.options;
    const known = this.known.get(window.index);
    const knownSent = known ? (known.sent ?? known.count) : 0;
    if (known && (known.count !== window.rows.length || knownSent !== window.sentRows.length)) {
      throw new Error(
        `The rows changed since the job started: window ${window.index} had ${known.count} rows (${knownSent} sent), now ${window.rows.length} (${window.sentRows.length})`
      );
    }
    this.queue.push(window);
    const sent = window.sentRows.length;
    let source: Observable<BulkSnapshot>;
    if (sent === 0) {
      window.settled = true;
      this.flush();
      return;
    } else if (known?.groupId !== undefined || known?.token !== undefined) {
      const token = known.token ?? {
        spellId,
        groupIds: [known.groupId as string],
        chunkSizes: [knownSent],
      };
      window.groupId = token.groupIds[0];
      window.token = token;
      window.unconfirmed = unconfirmedChunk(token);
      source = client.resumeBulk(token, knownSent, { detach: this.detach$ });
    } else if (known && !this.options.resendMayHaveStarted) {
      const reason = this.options.unknownRowReason;
      const unknown = reason
        ? { status: "unknown" as const, outputs: { error: reason } }
        : NOT_RECORDED;
      for (const place of window.sentRows) setResult(window, place, unknown);
      window.settled = true;
      this.flush();
      return;
    } else {
      // The money rule: the intent is recorded before the bulkStart can reach the service (in
      // turn with the other records, so a store sees them in the order they happened).
      await this.guard(() =>
        this.record(() =>
          store.recordIntent({
            window: window.index,
            firstRow: window.firstRow,
            count: window.rows.length,
            ...(sent === window.rows.length ? {} : { sent }),
          })
        )
      );
      if (this.writeError) {
        // Not recorded, so not sent.
        window.settled = true;
        return;
      }
      if (this.cancelled) {
        // Cancelled while the intent was being recorded: nothing goes out, and the store says so.
        void this.guard(() => store.recordRefused(window.index));
        return;
      }
      const inputs = window.sentRows.map((place) => this.options.inputsOf(window.rows[place]));
      source = client.bulk(spellId, inputs, { ...this.options.bulkOptions, detach: this.detach$ });
    }
    window.subscription = source.subscribe({
      next: (snapshot) => {
        this.noteGroups(window, snapshot);
        this.apply(window, snapshot.runs);
        this.flush();
      },
      error: (error: unknown) => {
        this.fail(window, error);
        window.settled = true;
        this.flush();
        this.poke();
      },
      complete: () => {
        window.settled = true;
        this.flush();
        this.poke();
      },
    });
  }

  /** Records the window's group as soon as the service names it, and each one named after it. */
  private noteGroups(window: Window<Row>, snapshot: BulkSnapshot): void {
    const groupIds = snapshot.groupIds ?? [];
    const groupId = groupIds[0];
    if (groupId === undefined || groupId === "") return;
    const known = window.token?.groupIds.length ?? (window.groupId === undefined ? 0 : 1);
    const named = groupIds.filter((id) => id !== "").length;
    if (window.groupId !== undefined && named <= known) return;
    const token: BulkResumeToken = snapshot.resume ?? {
      spellId: this.options.spellId,
      groupIds: [groupId],
      chunkSizes: [window.sentRows.length],
    };
    window.groupId = groupId;
    window.token = token;
    // The token only when the group id and the rows sent cannot rebuild it (several groups, or
    // rows sharing runs): a store keeps one id per window otherwise.
    void this.guard(() =>
      this.record(() =>
        resumeTokenNeeded(token)
          ? this.options.store.recordGroup(window.index, groupId, token)
          : this.options.store.recordGroup(window.index, groupId)
      )
    );
  }

  /** The runs of a snapshot that finished since the last one (a row's result is set once). */
  private apply(window: Window<Row>, runs: readonly BulkRunEntry[]): void {
    const { unconfirmed } = window;
    runs.forEach((run, sentIndex) => {
      const place = window.sentRows[sentIndex];
      if (window.results[place] !== undefined || !isFinished(run)) return;
      // "Not submitted" is not known for the chunk whose bulkStart may have left: its runs may
      // exist and be paid; running them again needs the user's explicit choice.
      if (
        unconfirmed &&
        run.state === "error" &&
        sentIndex >= unconfirmed.from &&
        sentIndex < unconfirmed.to
      ) {
        const reason = this.options.unknownRowReason;
        setResult(
          window,
          place,
          reason ? { status: "unknown", outputs: { error: reason } } : NOT_RECORDED
        );
        return;
      }
      setResult(window, place, { status: run.state, outputs: run.outputs });
    });
  }

  private fail(window: Window<Row>, error: unknown): void {
    const kind = classifyJobFailure(error, window.groupId !== undefined);
    const failure: JobFailure = {
      kind,
      error,
      window: window.index,
      firstRow: window.firstRow,
      count: window.rows.length,
      ...(window.groupId === undefined ? {} : { groupId: window.groupId }),
    };
    if (kind === "expired") {
      // The results are gone with the group: say so row by row, and go on with the others.
      this.expired.push(failure);
      const reason = {
        error: `Its bulk run ${window.groupId ?? ""} expired at the service with its results: run the row again`,
      };
      for (const place of window.sentRows) {
        if (window.results[place] === undefined) {
          setResult(window, place, { status: "expired", outputs: reason });
        }
      }
      return;
    }
    if (kind === "refused" || kind === "permanent") {
      // Nothing was started for this window: a resume may send it.
      void this.guard(() => this.options.store.recordRefused(window.index));
    }
    this.failures.push(failure);
    this.stopping = true;
  }

  /** After cancelBulk, the window's group once more: what finished (and was paid for) is kept. */
  private async readAfterCancel(window: Window<Row>): Promise<void> {
    const token = window.token;
    const before = window.results.slice();
    if (token !== undefined) {
      const sent = window.sentRows.length;
      const last = await lastValueFrom(
        this.options.client.resumeBulk(token, sent).pipe(
          first((snapshot) => snapshot.done),
          timeout({ first: this.options.cancelReadTimeoutMs ?? DEFAULT_CANCEL_READ_TIMEOUT_MS }),
          catchError(() => of(undefined))
        ),
        { defaultValue: undefined }
      );
      if (last) this.apply(window, last.runs);
    }
    window.results.forEach((result, place) => {
      // A run the cancel stopped ends as `error`: it is a cancelled row, not a failed run.
      if (before[place] === undefined && result?.status === "error") {
        window.results[place] = CANCELLED;
      }
    });
    for (let place = 0; place < window.rows.length; place++) {
      if (window.results[place] === undefined) setResult(window, place, CANCELLED);
    }
  }

  /**
   * Hands finished rows to the writer: in input order, every row whose predecessors are all
   * handed; with `writeOrder: "finished"`, every finished row not handed yet.
   */
  private flush(): void {
    const finished: FinishedJobRow<Row>[] = [];
    let completedWindow = false;
    for (const window of this.queue) {
      if (this.finishedOrder) {
        // Only the rows that got a result since the last flush: no scan of the whole window.
        for (const place of window.fresh) {
          const result = window.results[place] as RowResult;
          if (place < window.written || window.handed.has(place)) continue;
          finished.push({ index: window.firstRow + place, row: window.rows[place], ...result });
          window.handed.add(place);
        }
      } else {
        for (let place = window.written; place < window.rows.length; place++) {
          const result = window.results[place];
          if (result === undefined) break;
          if (window.handed.has(place)) continue;
          finished.push({ index: window.firstRow + place, row: window.rows[place], ...result });
          window.handed.add(place);
        }
      }
      window.fresh = [];
      advance(window);
      // In input order, a later window waits for this one.
      if (!this.finishedOrder && window.written < window.rows.length) break;
    }
    for (let index = 0; index < this.queue.length;) {
      const window = this.queue[index];
      const done = window.settled && window.written === window.rows.length;
      // In input order only the first window leaves the queue (the others wait for it).
      if (done && (this.finishedOrder || index === 0)) {
        this.queue.splice(index, 1);
        completedWindow = true;
      } else if (this.finishedOrder) index++;
      else break;
    }
    if (finished.length > 0) this.handOver(finished);
    if (completedWindow) {
      if (!this.finishedOrder) void this.guard(() => this.mark(false));
      this.poke();
    }
  }

  /**
   * Queues rows for the writer, one write at a time: rows handed over while nothing is being
   * written go out as they are; rows that finish while a write is queued or going on are folded
   * into one next write (one sheet sync for several polls).
   */
  private handOver(rows: FinishedJobRow<Row>[]): void {
    if (this.writesQueued === 0) {
      this.queueWrite(() => rows);
      return;
    }
    for (const row of rows) this.pending.push(row);
    if (this.writeQueued) return;
    this.writeQueued = true;
    this.queueWrite(() => {
      this.writeQueued = false;
      const batch = this.pending;
      this.pending = [];
      return batch;
    });
  }

  private queueWrite(take: () => FinishedJobRow<Row>[]): void {
    this.writesQueued++;
    void this.guard(async () => {
      const batch = take();
      if (batch.length === 0) return;
      await this.options.writer.write(batch);
      for (const row of batch) {
        this.counts[row.status] = (this.counts[row.status] ?? 0) + 1;
        this.writtenAfter.add(row.index);
      }
      this.writtenRows += batch.length;
      while (this.writtenAfter.delete(this.writtenPrefix)) this.writtenPrefix++;
      this.options.onProgress?.(this.progress());
      if (this.finishedOrder) await this.mark(false);
    }).finally(() => this.writesQueued--);
  }

  /** Records a written mark, at most every `writtenMarkEveryMs` unless `force`. */
  private async mark(force: boolean): Promise<void> {
    const now = this.now();
    const every = this.options.writtenMarkEveryMs ?? DEFAULT_WRITTEN_MARK_EVERY_MS;
    // Rows written since the last mark are only read back from their groups after a crash (never
    // run again), so a mark every half second is enough.
    if (this.writtenRows === this.markedRows) return;
    if (!force && !this.stopping && now - this.markedAt < every) return;
    this.markedAt = now;
    const written = this.writtenRows;
    const mark = this.currentMark();
    await this.options.writer.flush?.();
    await this.options.store.recordWritten(mark);
    this.markedRows = written;
  }

  /** The rows written now, as a mark. */
  private currentMark(): WrittenMark {
    const alsoWritten = [...this.writtenAfter].sort((a, b) => a - b);
    return {
      rows: this.writtenPrefix,
      counts: { ...this.counts },
      ...(alsoWritten.length > 0 ? { alsoWritten } : {}),
    };
  }

  /** A record other than a mark; with a store that saves all at once, it restarts the mark clock. */
  private async record(work: () => void | Promise<void>): Promise<void> {
    await work();
    if (this.options.store.savesAllAtOnce) this.markedAt = this.now();
  }

  /** Runs writer and store calls one after another; a failure stops the job, cancels nothing. */
  private guard(work: () => void | Promise<void>): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.writeError) return;
      try {
        await work();
      } catch (error) {
        // The paid runs are not cancelled: the bulks are detached (their runs go on at the
        // service), their groups are recorded, a resume collects them.
        this.writeError = { error };
        this.stopping = true;
        this.detachAll();
        this.poke();
      }
    });
    return this.writing;
  }

  /** Ends every unfinished window without cancelling its groups. */
  private detachAll(): void {
    this.detach$.next();
    for (const window of this.queue) {
      if (window.settled) continue;
      window.subscription?.unsubscribe();
      window.settled = true;
    }
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

/**
 * The runs of a token's first unnamed chunk, by their place among the runs sent; none when
 * every chunk has its group, or when rows share runs (`token.rows`: reuse, which the engine's
 * windows do not use for a store's tokens).
 */
function unconfirmedChunk(token: BulkResumeToken): { from: number; to: number } | undefined {
  const named = token.groupIds.length;
  if (named >= token.chunkSizes.length || token.rows) return undefined;
  const from = token.chunkSizes.slice(0, named).reduce((sum, size) => sum + size, 0);
  return { from, to: from + token.chunkSizes[named] };
}

/** Gives a row its result (once). */
function setResult<Row>(window: Window<Row>, place: number, result: RowResult): void {
  if (window.results[place] === undefined) window.known++;
  window.results[place] = result;
  window.fresh.push(place);
}

/** Moves a window's `written` past the rows handed out of order. */
function advance<Row>(window: Window<Row>): void {
  while (window.handed.delete(window.written)) window.written++;
}

function isFinished(
  run: BulkRunEntry
): run is BulkRunEntry & { state: "success" | "failure" | "error" } {
  return (TERMINAL_STATES as readonly string[]).includes(run.state);
}
