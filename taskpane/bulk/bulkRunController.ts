import { BehaviorSubject, interval, tap, type Observable } from "rxjs";
import { startedNothing, type BulkJobResult, type JobFailure } from "spellrun";
import { columnName } from "../sheet/a1Address.js";
import { blockName } from "../sheet/trackedBlock.js";
import { DocumentCheckpointStore } from "../storedJob/DocumentCheckpointStore.js";
import { writeTargetOf } from "../storedJob/writeTargetOf.js";
import type { BulkPlan } from "./planBulk.js";
import type { SelectionData } from "../sheet/readSelection.js";
import { clearBulkJob, saveBulkJob } from "../storedJob/jobStore.js";
import { loadKeptResults, saveKeptResults } from "../storedJob/keptResults.js";
import type { BulkJob } from "../storedJob/BulkJob.js";
import { keptResultsText } from "./keptResultsText.js";
import { writeKeptBelow, type KeptRowsWritten } from "./writeKeptBelow.js";
import { SheetResultWriter } from "../sheet/SheetResultWriter.js";
import { SpendingGuardError } from "../../addin/SpendingGuardError.js";
import { startRefused } from "../../addin/spending/startRefused.js";
import { prepareBlock } from "../sheet/prepareBlock.js";
import {
  idleProgress,
  projectProgress,
  type BulkPhase,
  type BulkProgress,
} from "./bulkProgress.js";
import { outcomeMessages } from "./outcomeMessages.js";
import { retryableRunsOf } from "./retryableRuns.js";
import { countStatus, endJob, releaseBlock, undoStart } from "./jobEnding.js";
import { jobCells, type RowCells } from "./jobCells.js";
import { writeStartStatuses } from "./writeStartStatuses.js";
import { recordWrites } from "./recordWrites.js";
import { jobEngine } from "./jobEngine.js";
import { newBulkJob, retryBulkJob } from "./newBulkJob.js";
import { resumeProblem } from "../storedJob/resumeProblem.js";
import { unfinishedJobMessage, unfinishedJobOver } from "./unfinishedJobOver.js";
import { loadBulkJobs } from "../storedJob/jobStore.js";
import { isEmptyCell } from "./isEmptyCell.js";
import { startedRuns } from "./startedRuns.js";
import type { BulkSource } from "./BulkSource.js";
import { TICK_MS, type ActiveBulk, type StartDetails } from "./ActiveBulk.js";

export type { BulkPhase, BulkProgress } from "./bulkProgress.js";
export type { BulkSource } from "./BulkSource.js";

/**
 * Runs one spell over rows of a sheet on the core's bulk-job engine (`BulkJobRunner`), the same
 * engine and money rules as the command line, with the pane's two adapters: the document
 * (`DocumentCheckpointStore`: the job, its token and the rows written, in the record sheet and the
 * settings) and the sheet (`SheetResultWriter`: each row found by its inputs, stale or lost rows
 * never written elsewhere).
 *
 * The pane's job is one window over every row, run with `reuse` (identical rows share a run,
 * remembered results start nothing; only rows of one bulk can share a run, so several windows
 * would pay again for a row repeated across them) and `writeOrder: "finished"`: rows are
 * written as they finish, one `writeOutputs` per write (a read to check where the block and its
 * rows are now, then one write sync); rows that finish while a write is going on are folded into
 * the next one.
 * Cancel is the engine's: one cancelBulk per unfinished group, the groups read once more, what
 * finished written, the rest marked cancelled. A write that fails detaches the bulk (no
 * cancelBulk, the paid runs finish at the service); Resume collects the results.
 *
 * ```
 * snapshots:  P───S1──S2──S3────D|
 * writes:         W1──────W3────WD     (S2 arrived during W1 and was folded into W3)
 * ```
 *
 * ## Example
 * ```ts
 * const controller = new BulkRunController(await sharedClient());
 * controller.progress$.subscribe(render);
 * await controller.start(selection, plan, "summarize");
 * ```
 */
export class BulkRunController {
  private readonly progressSubject = new BehaviorSubject<BulkProgress>(idleProgress(""));
  /** The progress, replayed to each new subscriber (latest first), then every change. */
  readonly progress$: Observable<BulkProgress> = this.progressSubject.asObservable();
  private active: ActiveBulk | undefined;
  private last: ActiveBulk | undefined;

  /**
   * @param source The client bulks go to.
   * @param now The clock (specs pass their own).
   * @param beforeStart The spending gate of every start (Run, Resume, Retry failed rows), asked
   *   by the engine with the runs really sent (after reuse); the add-in passes `spendingGate`.
   * @param refund Gives back runs `beforeStart` counted for a start the service surely refused
   *   (the core's rule, `startRefused`); the add-in passes `refundStart`.
   */
  constructor(
    private readonly source: BulkSource,
    private readonly now: () => number = Date.now,
    private readonly beforeStart?: (runs: number) => Observable<unknown>,
    private readonly refund?: (runs: number) => void
  ) {}

  /** The latest progress (what `progress$` last emitted). */
  get progress(): BulkProgress {
    return this.progressSubject.value;
  }

  /** True while a bulk is running or being cancelled. */
  get running(): boolean {
    return this.active !== undefined;
  }

  /**
   * Starts a bulk over the planned rows. Resolves when it is done, cancelled or failed.
   */
  async start(selection: SelectionData, plan: BulkPlan, spellId: string): Promise<BulkProgress> {
    const { block } = selection;
    // A refused start changes nothing, neither stored nor in the sheet.
    if (this.active) throw new Error("A bulk is already running.");
    const job = newBulkJob(selection, plan, spellId, blockName(), this.now());
    // Several jobs per workbook, one per block: a new run never discards another job, and over
    // the block of an unfinished one (its runs are paid for) it waits until that one is resumed
    // or forgotten.
    const unfinished = unfinishedJobOver(loadBulkJobs(), selection, plan);
    if (unfinished) throw new Error(unfinishedJobMessage(unfinished));
    await prepareBlock(
      job.sheetId ?? job.sheet,
      block,
      job.statusColumn,
      job.blockName,
      plan.insertColumns
    );
    const startStatuses = await writeStartStatuses(job, plan, selection);
    const cells = plan.rows.map(({ offset }) => ({
      values: plan.inputs.map(({ column }) => selection.rows[offset][column]),
      formats:
        selection.formats && plan.inputs.map(({ column }) => selection.formats![offset]?.[column]),
    }));
    return this.launch(
      job,
      plan.rows.map((row) => row.inputs),
      cells,
      {
        insertedColumn: plan.insertColumns ? job.statusColumn : undefined,
        startStatuses,
        // A cell typed into these during the run is the user's: kept, the result goes aside.
        outputsEmptyAtPlan: plan.rows.map(({ offset }) =>
          (selection.existing.cells[offset] ?? []).slice(1).every((cell) => isEmptyCell(cell))
        ),
      }
    );
  }

  /**
   * Re-attaches to a stored bulk (see `loadBulkJob`): runs already finished are only read back,
   * never started again; rows already in the sheet are not written again.
   */
  async resume(job: BulkJob): Promise<BulkProgress> {
    // Resume only reads back: a job whose windows do not name every row's group would start them.
    const problem = resumeProblem(job);
    if (problem) throw new Error(problem);
    const store = new DocumentCheckpointStore(job, { stored: true });
    return this.run(job, store, [], await jobCells(job));
  }

  /**
   * Starts a new bulk over the rows of the last bulk that failed, errored, were cancelled or
   * went stale, with their inputs as they are now.
   */
  async retryFailed(): Promise<BulkProgress> {
    const last = this.last;
    if (!last || this.active) throw new Error("Nothing to retry.");
    const runs = this.retryable(last);
    if (runs.length === 0) throw new Error("No failed rows to retry.");
    const { job } = last;
    const rows = runs.map((run) => job.rows[run]).filter((row) => row >= 0);
    if (rows.length === 0) throw new Error("The failed rows can no longer be found.");
    const { retry, inputsList, kept } = await retryBulkJob(job, rows, last.target, this.now());
    return this.launch(retry, inputsList, kept);
  }

  /**
   * Cancels the running bulk: the engine unsubscribes (the core sends one cancelBulk per
   * unfinished group), then reads the groups once more, so runs that finished since the last
   * poll (and were paid for) get their outputs written; only the rows still unfinished are
   * marked cancelled. Then the resume state is forgotten.
   */
  async cancel(): Promise<void> {
    const active = this.active;
    if (!active || active.cancelling) return;
    active.cancelling = true;
    this.emit(active, "cancelling");
    await active.runner?.cancel();
    await active.done;
  }

  private launch(
    job: BulkJob,
    inputsList: Record<string, unknown>[],
    cells: Array<RowCells | undefined>,
    start: StartDetails = {}
  ): Promise<BulkProgress> {
    // A refused start changes nothing stored: the job of the running bulk stays as it is.
    if (this.active) return Promise.reject(new Error("A bulk is already running."));
    // The engine records the intent (the whole job) before anything is sent.
    return this.run(job, new DocumentCheckpointStore(job), inputsList, cells, start);
  }

  private run(
    job: BulkJob,
    store: DocumentCheckpointStore,
    inputsList: Record<string, unknown>[],
    cells: Array<RowCells | undefined>,
    start: StartDetails = {}
  ): Promise<BulkProgress> {
    if (this.active) return Promise.reject(new Error("A bulk is already running."));
    const active: ActiveBulk = {
      job,
      // Shares the job's rows: rows found again after a sort or insert are saved with it.
      target: writeTargetOf(job, "rows"),
      handled: new Set(job.handled),
      statuses: new Map(),
      // Kept earlier in this job (rows deleted before a reload) stay kept.
      kept: loadKeptResults(job.id),
      cells,
      stale: new Set(),
      cancelled: new Set(),
      cancelling: false,
      done: Promise.resolve(idleProgress(job.spellId)),
      ...start,
    };
    this.active = active;
    active.target.outputsEmptyAtPlan = start.outputsEmptyAtPlan;
    const writer = new SheetResultWriter<number>(active.target, (report, rows) =>
      recordWrites(active, report, rows)
    );
    active.runner = jobEngine(active, {
      client: this.source,
      store,
      writer,
      inputsList,
      ...(this.beforeStart
        ? {
            beforeStart: (runs: number) =>
              this.beforeStart!(runs).pipe(tap(() => (active.charged = runs))),
          }
        : {}),
      now: this.now,
      onProgress: () => this.emit(active, active.cancelling ? "cancelling" : "running"),
    });
    this.emit(active, "running");
    active.ticker = interval(TICK_MS).subscribe(() => {
      if (this.active === active) this.emit(active, active.cancelling ? "cancelling" : "running");
    });
    active.done = active.runner.run().then(
      (result) => this.finish(active, result),
      (error: unknown) => this.writeFailed(active, error)
    );
    return active.done;
  }

  private async finish(active: ActiveBulk, result: BulkJobResult): Promise<BulkProgress> {
    const { job } = active;
    switch (result.outcome) {
      case "interrupted":
        await endJob(active);
        await releaseBlock(active);
        return this.settle(active, "cancelled");
      case "incomplete":
      case "complete": {
        if (result.expired.length > 0) {
          // The service no longer knows the groups: resuming again cannot help. Kept (marked)
          // so the pane can say so and let the user dismiss it; Retry failed rows runs the rest
          // again.
          job.expired = true;
          await saveBulkJob(job);
          const rest = countStatus(active, "expired");
          return this.settle(active, "failed", outcomeMessages.expired(rest));
        }
        await endJob(active);
        await releaseBlock(active);
        const { layout } = active.target;
        const first = columnName(layout.statusColumn);
        const last = columnName(layout.statusColumn + Math.max(layout.width, 1) - 1);
        return this.settle(
          active,
          "done",
          outcomeMessages.done(job.sheet, first, last, active.kept.length)
        );
      }
      case "service-error":
        return this.serviceFailed(active, result.failures[0]);
      default:
        return this.writeFailed(active, result.error);
    }
  }

  /** The core's one failure policy (the command line's too), in the pane's words. */
  private async serviceFailed(
    active: ActiveBulk,
    failure: JobFailure | undefined
  ): Promise<BulkProgress> {
    const error = failure?.error;
    const kind = failure?.kind ?? "unfinished";
    if (kind === "unfinished") {
      return this.settle(active, "failed", outcomeMessages.unfinished(error));
    }
    // The spending gate refused before anything was sent (the engine cannot tell its error from
    // a lost answer, so the pane says it: nothing started, nothing to keep).
    active.startFailed = true;
    // A start the service surely refused (the core's rule) gives back the runs the gate counted,
    // less the chunks that had started: the guard counts the runs really sent.
    if (active.charged && startRefused(error)) {
      this.refund?.(active.charged - startedRuns(active.job.token));
      active.charged = 0;
    }
    if (startedNothing(kind) || error instanceof SpendingGuardError) {
      // Refused: nothing was started, nothing to keep, and the sheet as it was.
      await clearBulkJob(active.job.id);
      await undoStart(active);
      // Refused by the daily cap: the message says to raise it, so Retry failed rows stays.
      if (error instanceof SpendingGuardError) active.startRefused = false;
      return this.settle(active, "failed", outcomeMessages.refused(error, active.job.spellId));
    }
    // The start got no answer after it may have reached the service (a 5xx, 408, a time-out, a
    // dropped connection): the stored job stays, so the pane asks before these rows are sent
    // again (the notice, and Run over this block, wait for the user's Forget).
    active.mayHaveStarted = true;
    return this.settle(active, "failed", outcomeMessages.mayHaveStarted(error));
  }

  private writeFailed(active: ActiveBulk, error: unknown): BulkProgress {
    const resumable = (active.job.token?.groupIds.length ?? 0) > 0;
    return this.settle(active, "failed", outcomeMessages.writeFailed(error, resumable));
  }

  /**
   * Results whose rows were deleted (or edited where another record now is) during the run, as
   * tab-separated text with a header line (status, then output names), for the user to paste
   * where they want: never written into the sheet by the pane.
   */
  keptResults(): string {
    const active = this.active ?? this.last;
    if (!active) return "";
    return keptResultsText(active.kept, active.target.layout.names, active.job.inputHeaders);
  }

  /**
   * Writes the kept results of the last bulk as new records under its block (see
   * `writeKeptBelow`: only into empty rows, nothing written otherwise), then forgets them.
   *
   * @return where they were written
   * @throws KeptRowsOccupiedError when the rows under the block are not empty
   */
  async writeKeptBelow(): Promise<KeptRowsWritten> {
    const last = this.last;
    if (!last || this.active || last.kept.length === 0)
      throw new Error("No kept results to write.");
    const written = await writeKeptBelow(last.job, last.kept);
    last.kept = [];
    if (last.job.keptOnly) {
      await clearBulkJob(last.job.id);
      await releaseBlock(last);
    } else {
      await saveKeptResults(last.job.id, []);
    }
    this.emit(last, this.progress.phase, outcomeMessages.keptWritten(written.address));
    return written;
  }

  private settle(active: ActiveBulk, phase: BulkPhase, message?: string): BulkProgress {
    active.ticker?.unsubscribe();
    this.active = undefined;
    this.last = active;
    return this.emit(active, phase, message);
  }

  private emit(active: ActiveBulk, phase: BulkPhase, message?: string): BulkProgress {
    const state = active.runner?.progress();
    const progress = projectProgress({
      phase,
      spellId: active.job.spellId,
      total: active.job.rows.length,
      startedAt: active.job.startedAt,
      now: this.now(),
      written: state?.counts ?? {},
      running: state?.running ?? 0,
      startFailed: active.startFailed,
      stale: active.stale.size,
      cancelled: active.cancelled.size,
      kept: active.kept.length,
      retryable: phase === "running" || phase === "cancelling" ? 0 : this.retryable(active).length,
      message,
    });
    this.progressSubject.next(progress);
    return progress;
  }

  /** The runs "Retry failed rows" would run again (see `retryableRuns`). */
  private retryable(active: ActiveBulk): number[] {
    return retryableRunsOf(active);
  }
}
