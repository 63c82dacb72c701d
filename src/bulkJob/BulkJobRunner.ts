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
  JobLease,
  JobOutcome,
  KnownWindow,
  WrittenMark,
} from "./CheckpointStore.js";
import { classifyJobFailure, type JobFailureKind } from "./classifyJobFailure.js";
import { resumeTokenNeeded } from "./resumeTokenNeeded.js";
import { firstDifferentRow, windowFingerprint } from "./rowFingerprint.js";
import { RowsChangedError } from "./RowsChangedError.js";
import type { ResultWriter } from "./ResultWriter.js";
import type { FinishedJobRow, RowResult, RowStatusCounts } from "./RowResult.js";

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
  /**
   * This worker's name in the store's lease (stores with `acquireLease` only).
   * @default a random id
   */
  leaseOwner?: string;
  /** How long the lease lasts unless renewed (renewed every third of it). @default 30000 */
  leaseMs?: number;
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
  /** Resumed with a token that names fewer groups than chunks: the first run of those chunks. */
  unnamedFrom?: number;
  subscription?: Subscription;
  /** Set once the window's bulk completed, failed or was cancelled. */
  settled: boolean;
}

const DEFAULT_WRITTEN_MARK_EVERY_MS = 500;
const DEFAULT_CANCEL_READ_TIMEOUT_MS = 10_000;
const DEFAULT_LEASE_MS = 30_000;

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
  private counts: RowStatusCounts = {};
  private known = new Map<number, KnownWindow>();
  /** This worker's lease, with a store that has leases. */
  private lease: JobLease | undefined;
  /** The checkpoint resumed (the store's own once the lease is held). */
  private resume: Checkpoint | undefined;
  private readonly expired: JobFailure[] = [];
  private readonly now: () => number;
  private readonly finishedOrder: boolean;
  /** Rows written (their write resolved), including those written before a resume. */
  private writtenRows = 0;
  /** Rows `0 … writtenPrefix - 1` are all written. */
  private writtenPrefix = 0;
  /** With `writeOrder: "finished"`: rows written past `writtenPrefix`. */
  private readonly writtenAfter = new Set<number>();
  private markedRows = 0;
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
    this.finishedOrder = options.writeOrder === "finished";
    this.now = options.now ?? Date.now;
    this.restore(options.resume);
  }

  /** Starts from a checkpoint (none: a new job). */
  private restore(resume: Checkpoint | undefined): void {
    this.resume = resume;
    this.writtenPrefix = resume?.writtenRows ?? 0;
    this.writtenAfter.clear();
    for (const row of resume?.alsoWritten ?? []) {
      if (row >= this.writtenPrefix) this.writtenAfter.add(row);
    }
    this.writtenRows = this.writtenPrefix + this.writtenAfter.size;
    this.markedRows = this.writtenRows;
    this.counts = { ...resume?.counts };
    this.known = resume?.windows ?? new Map();
  }

  /**
   * Runs the job to its end: complete, cancelled, or stopped by a failure. With a store that has
   * leases, takes the job's lease first (and reads the checkpoint again once it holds it).
   * @return the outcome and counts
   * @throws LeaseHeldError when another worker holds the job's lease (nothing was done)
   */
  async run(): Promise<BulkJobResult> {
    const { store } = this.options;
    if (!store.acquireLease) return this.runHeld();
    const owner = this.options.leaseOwner ?? randomOwner();
    const lease: JobLease = { owner, ttlMs: this.options.leaseMs ?? DEFAULT_LEASE_MS };
    this.lease = lease;
    // Throws LeaseHeldError when another worker runs the job: nothing read, sent or recorded.
    await store.acquireLease(lease);
    const renew = setInterval(() => {
      Promise.resolve()
        .then(() => store.acquireLease?.(lease))
        .catch((error: unknown) => this.stopOnRecordError(error));
    }, lease.ttlMs / 3);
    try {
      // A checkpoint loaded before the lease was held may be stale (another worker ran since):
      // the store's own is taken when it knows more.
      const given = this.options.resume;
      const stored = given ? await store.load() : undefined;
      if (given && stored && knowsMore(stored, given)) this.restore(stored);
      return await this.runHeld();
    } finally {
      clearInterval(renew);
      await store.releaseLease?.(owner);
    }
  }

  private async runHeld(): Promise<BulkJobResult> {
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
    const { store } = this.options;
    let lastMark: WrittenMark | undefined;
    // The writer's life cycle: the last rows made durable (`flush`) and their mark recorded, then
    // `end`, and nothing after it.
    await this.guard(async () => {
      if (!store.savesAllAtOnce) await this.mark(true);
      else if (this.writtenRows !== this.markedRows) {
        // A store that saves all at once gets the last mark with the end: it saves both at once,
        // or nothing when it forgets a finished job.
        await this.options.writer.flush?.();
        lastMark = this.currentMark();
      }
    });
    await this.guard(() => this.options.writer.end?.());
    // Decided after the writer's end, so that an `end` that fails is the outcome's error too.
    const outcome = this.outcome(inputError);
    await store.recordEnd(outcome, this.writtenPrefix, lastMark);
    const error = inputError ?? this.writeError;
    return {
      outcome,
      rows: this.writtenRows,
      counts: { ...this.counts },
      expired: [...this.expired],
      failures: [...this.failures],
      ...(error ? { error: error.error } : {}),
    };
  }

  /** How the run ended; `complete` only when every row is written with a known end. */
  private outcome(inputError: { error: unknown } | undefined): JobOutcome {
    if (this.cancelled) return "interrupted";
    if (inputError) return "input-error";
    if (this.writeError) return "write-error";
    if (this.failures.length > 0 || this.queue.length > 0) return "service-error";
    return (this.counts.unknown ?? 0) > 0 ? "incomplete" : "complete";
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
    const { windowSize, rows: source } = this.options;
    const startRow = this.resume?.writtenRows ?? 0;
    // A function is asked for the rows from the first window not all written.
    const fromRow = typeof source === "function" ? startRow - (startRow % windowSize) : 0;
    let rows: Row[] = [];
    let rowCount = fromRow;
    let index = fromRow / windowSize;
    for await (const row of typeof source === "function" ? source(fromRow) : source) {
      if (this.stopping) return;
      rows.push(row);
      rowCount++;
      if (rows.length === windowSize) {
        this.checkRows(index, rows);
        if (rowCount > startRow) yield this.window(index, rows);
        rows = [];
        index++;
      }
    }
    if (rows.length > 0) {
      this.checkRows(index, rows);
      if (rowCount > startRow) yield this.window(index, rows);
      index++;
    }
    for (const known of [...this.known.keys(), ...(this.resume?.refused?.keys() ?? [])]) {
      if (known >= index) {
        throw new RowsChangedError(
          known,
          rowCount,
          `the rows end after row ${rowCount}, the checkpoint sent window ${known}`
        );
      }
    }
  }

  /** Refuses rows that are not those a window's intent recorded: no row gets another's outputs. */
  private checkRows(index: number, rows: readonly Row[]): void {
    const known = this.known.get(index) ?? this.resume?.refused?.get(index);
    if (!known) return;
    const firstRow = index * this.options.windowSize;
    if (known.count !== rows.length) {
      throw new RowsChangedError(
        index,
        firstRow,
        `window ${index} had ${known.count} rows, now ${rows.length}`
      );
    }
    const place = firstDifferentRow(known.fingerprint, rows.map(this.fingerprintOf));
    if (place >= 0) {
      throw new RowsChangedError(index, firstRow + place, `row ${firstRow + place + 1} differs`);
    }
  }

  private readonly fingerprintOf = (row: Row): unknown =>
    this.options.fingerprintOf ? this.options.fingerprintOf(row) : this.options.inputsOf(row);

  private window(index: number, rows: Row[]): Window<Row> {
    const firstRow = index * this.options.windowSize;
    const results = rows.map((row, place) => this.options.knownResultOf?.(row, firstRow + place));
    const sentRows: number[] = [];
    results.forEach((result, place) => {
      if (result === undefined) sentRows.push(place);
    });
    // Rows written before this window was read (before a resume, or out of order since: a row
    // written past the first gap moves `writtenPrefix` past rows of windows not read yet) are
    // not handed to the writer again.
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
      written: Math.min(rows.length, Math.max(0, this.writtenPrefix - firstRow)),
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
    if (known && knownSent !== window.sentRows.length) {
      throw new RowsChangedError(
        window.index,
        window.firstRow,
        `window ${window.index} sent ${knownSent} of its rows, now ${window.sentRows.length} would be`
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
      window.unnamedFrom = unnamedRunsFrom(token);
      source = client.resumeBulk(token, knownSent, { detach: this.detach$ });
    } else if (known && !this.options.resendMayHaveStarted) {
      const unknown = this.unknownResult();
      for (const place of window.sentRows) setResult(window, place, unknown);
      window.settled = true;
      this.flush();
      return;
    } else {
      // The money rule: the intent is recorded before the bulkStart can reach the service (in
      // turn with the other records, so a store sees them in the order they happened).
      await this.guard(async () => {
        // The lease renewed right before the intent: a worker that lost it sends nothing more.
        if (this.lease) await store.acquireLease?.(this.lease);
        await this.record(() =>
          store.recordIntent({
            window: window.index,
            firstRow: window.firstRow,
            count: window.rows.length,
            ...(sent === window.rows.length ? {} : { sent }),
            fingerprint: windowFingerprint(window.rows.map(this.fingerprintOf)),
          })
        );
      });
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
    const { unnamedFrom, token } = window;
    runs.forEach((run, sentIndex) => {
      const place = window.sentRows[sentIndex];
      if (window.results[place] !== undefined) return;
      const runIndex = token?.rows ? token.rows[sentIndex] : sentIndex;
      if (unnamedFrom !== undefined && runIndex >= unnamedFrom) {
        // A chunk whose group was never recorded: its bulkStart may have left after the last
        // record (the core answers `error` for it). Not a failed run: unknown, never re-sent.
        setResult(window, place, this.unknownResult());
      } else if (isFinished(run)) {
        setResult(window, place, { status: run.state, outputs: run.outputs });
      }
    });
  }

  /** The result of a row whose start may have happened without an answer recorded. */
  private unknownResult(): RowResult {
    const reason = this.options.unknownRowReason;
    return reason ? { status: "unknown", outputs: { error: reason } } : NOT_RECORDED;
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
        this.stopOnRecordError(error);
      }
    });
    return this.writing;
  }

  /** A writer or store failure (or a lost lease) stops the job and cancels nothing. */
  private stopOnRecordError(error: unknown): void {
    if (this.writeError) return;
    // The paid runs are not cancelled: the bulks are detached (their runs go on at the
    // service), their groups are recorded, a resume collects them.
    this.writeError = { error };
    this.stopping = true;
    this.detachAll();
    this.poke();
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

/** The first run of the chunks a token names no group for; undefined when it names all. */
function unnamedRunsFrom(token: BulkResumeToken): number | undefined {
  if (token.groupIds.length >= token.chunkSizes.length) return undefined;
  return token.chunkSizes.slice(0, token.groupIds.length).reduce((sum, size) => sum + size, 0);
}

/** Whether checkpoint `a` has records `b` lacks: more rows written, windows sent or answered. */
function knowsMore(a: Checkpoint, b: Checkpoint): boolean {
  if (
    a.writtenRows > b.writtenRows ||
    (a.alsoWritten?.length ?? 0) > (b.alsoWritten?.length ?? 0)
  ) {
    return true;
  }
  if (a.outcome !== undefined && b.outcome === undefined) return true;
  for (const [index, window] of a.windows) {
    const other = b.windows.get(index);
    if (!other || (window.groupId !== undefined && other.groupId === undefined)) return true;
  }
  return false;
}

/** A worker id for a lease. */
function randomOwner(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return uuid ?? `worker-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function isFinished(
  run: BulkRunEntry
): run is BulkRunEntry & { state: "success" | "failure" | "error" } {
  return (TERMINAL_STATES as readonly string[]).includes(run.state);
}
