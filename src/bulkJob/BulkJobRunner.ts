import { Subject } from "rxjs";
import type { BulkResumeToken, BulkSnapshot } from "../types.js";
import type {
  BulkJobOptions,
  BulkJobProgress,
  BulkJobResult,
  JobFailure,
} from "./BulkJobOptions.js";
import type { Checkpoint, JobLease, JobOutcome, WrittenMark } from "./CheckpointStore.js";
import { expireRows, newJobWindow, setResult, unknownResult, type JobWindow } from "./JobWindow.js";
import { callChunkHook } from "./callChunkHook.js";
import type { ChunkPlan } from "./chunkPlan.js";
import { groupRecordToken } from "./groupRecordToken.js";
import { JOB_DEFAULTS } from "./jobDefaults.js";
import { jobFailureOf } from "./jobFailureOf.js";
import { jobProgress } from "./jobProgress.js";
import { joinTokens } from "./joinTokens.js";
import { readAfterCancel } from "./readAfterCancel.js";
import { readWindows } from "./readWindows.js";
import { resumedWindowSource } from "./resumedWindowSource.js";
import { resumeTokenNeeded } from "./resumeTokenNeeded.js";
import { windowFingerprint } from "./rowFingerprint.js";
import { sentRowsChecked } from "./sentRowsChecked.js";
import { applyRuns, takeFinishedRows } from "./takeFinishedRows.js";
import { windowBulk } from "./windowBulk.js";
import { knowsMore, randomOwner, withLease } from "./withLease.js";
import { Wakeup } from "./Wakeup.js";
import { WriteQueue } from "./WriteQueue.js";
import { WrittenRows } from "./WrittenRows.js";

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
  private readonly queue: JobWindow<Row>[] = [];
  /** The checkpoint resumed (the store's own once the lease is held). */
  private resume: Checkpoint | undefined;
  private readonly written: WrittenRows;
  private readonly writes: WriteQueue<Row>;
  /** This worker's lease, with a store that has leases. */
  private lease: JobLease | undefined;
  private readonly expired: JobFailure[] = [];
  private readonly failures: JobFailure[] = [];
  /** Windows whose start the service refused: their rows never ran (see `progress`). */
  private readonly refusedWindows = new Set<number>();
  private readonly finishedOrder: boolean;
  private stopping = false;
  private cancelled = false;
  private cancelling: Promise<void> | undefined;
  private readonly wakeup = new Wakeup();
  /** Emits when the job can no longer write: the bulks end without cancelling (paid runs go on). */
  private readonly detach$ = new Subject<void>();

  constructor(private readonly options: BulkJobOptions<Row>) {
    if (!(options.windowSize >= 1) || !(options.maxWindows >= 1)) {
      throw new RangeError("BulkJobRunner: windowSize and maxWindows must be at least 1");
    }
    this.finishedOrder = options.writeOrder === "finished";
    this.resume = options.resume;
    this.written = new WrittenRows(options.resume);
    this.writes = new WriteQueue<Row>({
      writer: options.writer,
      store: options.store,
      written: this.written,
      now: options.now ?? Date.now,
      markEveryMs: options.writtenMarkEveryMs ?? JOB_DEFAULTS.writtenMarkEveryMs,
      markAfterWrite: this.finishedOrder,
      stopping: () => this.stopping,
      onWritten: () => this.options.onProgress?.(this.progress()),
      // The paid runs are not cancelled: the bulks are detached (their runs go on at the
      // service), their groups are recorded, a resume collects them.
      onError: () => {
        this.stopping = true;
        this.detachAll();
        this.wakeup.poke();
      },
    });
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
    const lease: JobLease = {
      owner: this.options.leaseOwner ?? randomOwner(),
      ttlMs: this.options.leaseMs ?? JOB_DEFAULTS.leaseMs,
    };
    this.lease = lease;
    return withLease(
      store,
      lease,
      (error) => this.writes.fail(error),
      async () => {
        // A checkpoint loaded before the lease was held may be stale (another worker ran since):
        // the store's own is taken when it knows more.
        const given = this.options.resume;
        const stored = given ? await store.load() : undefined;
        if (given && stored && knowsMore(stored, given)) {
          this.resume = stored;
          this.written.restore(stored);
          this.writes.resetMarked();
        }
        return this.runHeld();
      }
    );
  }

  private async runHeld(): Promise<BulkJobResult> {
    let inputError: { error: unknown } | undefined;
    const { windowSize, rows } = this.options;
    try {
      const source = readWindows(
        rows,
        windowSize,
        this.resume,
        this.fingerprintOf,
        () => this.stopping
      );
      for await (const { index, rows: windowRows } of source) {
        while (!this.stopping && this.queue.length >= this.options.maxWindows)
          await this.wakeup.sleep();
        if (this.stopping) break;
        const firstRow = index * windowSize;
        const results = windowRows.map((row, place) =>
          this.options.knownResultOf?.(row, firstRow + place)
        );
        await this.start(newJobWindow(index, firstRow, windowRows, results, this.written));
      }
    } catch (error) {
      inputError = { error };
      this.stopping = true;
    }
    while (this.queue.some((window) => !window.settled)) await this.wakeup.sleep();
    await this.cancelling;
    this.flush();
    await this.writes.idle();
    const { store, writer } = this.options;
    let lastMark: WrittenMark | undefined;
    // The writer's life cycle: the last rows made durable (`flush`) and their mark recorded, then
    // `end`, and nothing after it. A store that saves all at once gets the last mark with the
    // end: it saves both at once, or nothing when it forgets a finished job.
    await this.writes.guard(async () => {
      if (!store.savesAllAtOnce) await this.writes.mark(true);
      else lastMark = await this.writes.lastMark();
    });
    await this.writes.guard(() => writer.end?.());
    // Decided after the writer's end, so that an `end` that fails is the outcome's error too.
    const outcome = this.outcome(inputError);
    await store.recordEnd(outcome, this.written.prefix, lastMark);
    const error = inputError ?? this.writes.error;
    return {
      outcome,
      rows: this.written.rows,
      counts: { ...this.written.counts },
      expired: [...this.expired],
      failures: [...this.failures],
      ...(error ? { error: error.error } : {}),
    };
  }

  /** How the run ended; `complete` only when every row is written with a known end. */
  private outcome(inputError: { error: unknown } | undefined): JobOutcome {
    if (this.cancelled) return "interrupted";
    if (inputError) return "input-error";
    if (this.writes.error) return "write-error";
    if (this.failures.length > 0 || this.queue.length > 0) return "service-error";
    return (this.written.counts.unknown ?? 0) > 0 ? "incomplete" : "complete";
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
    this.cancelling = Promise.all(
      unfinished.map((window) =>
        readAfterCancel(
          this.options.client,
          window,
          this.options.cancelReadTimeoutMs ?? JOB_DEFAULTS.cancelReadTimeoutMs,
          unknownResult(this.options.unknownRowReason)
        )
      )
    ).then(() => {
      this.flush();
      this.wakeup.poke();
    });
    this.wakeup.poke();
    return this.cancelling;
  }

  /** Where the job stands now. */
  progress(): BulkJobProgress {
    return jobProgress(this.queue, this.refusedWindows, this.written);
  }

  private async start(window: JobWindow<Row>): Promise<void> {
    const { store } = this.options;
    const known = this.resume?.windows.get(window.index);
    sentRowsChecked(window, known);
    this.queue.push(window);
    const sent = window.sentRows.length;
    if (sent === 0) {
      window.settled = true;
      this.flush();
      return;
    }
    let source =
      known &&
      resumedWindowSource(this.options, window, known, this.detach$, (chunk, prefix) =>
        this.chunkIntent(window, chunk, prefix)
      );
    if (!source && known && !this.options.resendMayHaveStarted) {
      const unknown = unknownResult(this.options.unknownRowReason);
      for (const place of window.sentRows) setResult(window, place, unknown);
      window.settled = true;
      this.flush();
      return;
    } else if (!source) {
      // The money rule: the intent is recorded before the bulkStart can reach the service (in
      // turn with the other records, so a store sees them in the order they happened).
      await this.writes.guard(async () => {
        // The lease renewed right before the intent: a worker that lost it sends nothing more.
        if (this.lease) await store.acquireLease?.(this.lease);
        await this.writes.record(() =>
          store.recordIntent({
            window: window.index,
            firstRow: window.firstRow,
            count: window.rows.length,
            ...(sent === window.rows.length ? {} : { sent }),
            fingerprint: windowFingerprint(window.rows.map(this.fingerprintOf)),
          })
        );
      });
      if (this.writes.error) {
        // Not recorded, so not sent.
        window.settled = true;
        return;
      }
      if (this.cancelled) {
        // Cancelled while the intent was being recorded: nothing goes out, and the store says so.
        void this.writes.guard(() => store.recordRefused(window.index));
        return;
      }
      source = windowBulk(this.options, window, this.detach$, (token) =>
        this.chunkIntent(window, token)
      );
    }
    window.subscription = source.subscribe({
      next: (snapshot) => {
        this.noteGroups(window, snapshot);
        applyRuns(window, snapshot.runs, unknownResult(this.options.unknownRowReason));
        this.flush();
      },
      error: (error: unknown) => {
        this.fail(window, error);
        window.settled = true;
        this.flush();
        this.wakeup.poke();
      },
      complete: () => {
        window.settled = true;
        this.flush();
        this.wakeup.poke();
      },
    });
  }

  /**
   * The intent of one chunk of a window's bulk, recorded before its bulkStart can leave: the
   * groups named so far and the chunks that may have been sent, this one included (the chunks
   * after it surely were not: a resume sends them again). Errors when the record failed, so the
   * chunk is not sent.
   * @param window the window
   * @param token the core's token for the chunk (`BulkOptions.beforeChunkStart`)
   * @param prefix the chunks before it, when the bulk re-sends the end of a resumed window
   */
  private async chunkIntent(
    window: JobWindow<Row>,
    token: BulkResumeToken,
    prefix?: ChunkPlan["prefix"]
  ): Promise<void> {
    const whole = prefix ? joinTokens(prefix, token) : token;
    window.mayHaveSent = whole.mayHaveSent;
    // "" while no chunk has a group yet (see CheckpointStore.recordGroup).
    const groupId = whole.groupIds.find((id) => id !== "") ?? "";
    // A bulk of one chunk: the window's intent says all there is (one record fewer per window).
    if (whole.chunkSizes.length > 1) {
      const { store } = this.options;
      await this.writes.guard(async () => {
        // As for a window's intent: a worker that lost its lease sends nothing more.
        if (this.lease) await store.acquireLease?.(this.lease);
        await this.writes.record(() => store.recordGroup(window.index, groupId, whole));
      });
    }
    if (this.writes.error) throw this.writes.error.error;
    // The caller's own hook, after the engine's record, with the core's token (as without it).
    await callChunkHook(this.options.bulkOptions?.beforeChunkStart, token);
  }

  /** Records the window's group as soon as the service names it, and each one named after it. */
  private noteGroups(window: JobWindow<Row>, snapshot: BulkSnapshot): void {
    const token = groupRecordToken(window, snapshot, this.options.spellId);
    if (token === undefined) return;
    const groupId = token.groupIds[0];
    window.groupId = groupId;
    window.token = token;
    // The token only when the group id and the rows sent cannot rebuild it (several groups, or
    // rows sharing runs): a store keeps one id per window otherwise.
    void this.writes.guard(() =>
      this.writes.record(() =>
        resumeTokenNeeded(token)
          ? this.options.store.recordGroup(window.index, groupId, token)
          : this.options.store.recordGroup(window.index, groupId)
      )
    );
  }

  /** The value a window's fingerprint records for a row. */
  private readonly fingerprintOf = (row: Row): unknown =>
    this.options.fingerprintOf ? this.options.fingerprintOf(row) : this.options.inputsOf(row);

  private fail(window: JobWindow<Row>, error: unknown): void {
    const failure = jobFailureOf(window, error);
    const { kind } = failure;
    if (kind === "expired") {
      // The results are gone with the group: say so row by row, and go on with the others.
      this.expired.push(failure);
      expireRows(window);
      return;
    }
    if (kind === "refused" || kind === "permanent") {
      this.refusedWindows.add(window.index);
      // Nothing was started for this window: a resume may send it.
      void this.writes.guard(() => this.options.store.recordRefused(window.index));
    }
    this.failures.push(failure);
    this.stopping = true;
  }

  /** Hands the finished rows of the held windows to the writer (see `takeFinishedRows`). */
  private flush(): void {
    const { finished, completedWindow } = takeFinishedRows(this.queue, this.finishedOrder);
    if (finished.length > 0) this.writes.handOver(finished);
    if (completedWindow) {
      if (!this.finishedOrder) void this.writes.guard(() => this.writes.mark(false));
      this.wakeup.poke();
    }
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
}
