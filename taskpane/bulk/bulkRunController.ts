import { BehaviorSubject, interval, type Observable, type Subscription } from "rxjs";
import type {
  BulkJobResult,
  BulkOptions,
  BulkResumeToken,
  BulkSnapshot,
  FinishedJobRow,
  JobFailure,
  RowStatus,
  RunState,
} from "../../src";
import { BulkJobRunner, countRunStates, startedNothing } from "../../src";
import { columnName } from "../sheet/a1Address.js";
import type { CellBlock } from "../sheet/a1Address.js";
import { addBlockName, blockName, deleteBlockName } from "../sheet/trackedBlock.js";
import { checkpointOf, DocumentCheckpointStore } from "../storedJob/DocumentCheckpointStore.js";
import { writeTargetOf } from "../storedJob/writeTargetOf.js";
import type { BulkPlan } from "./planBulk.js";
import { progressEstimate } from "./progressEstimate.js";
import { dateInputValue } from "../sheet/dateInputValue.js";
import { readValuesInChunks } from "../sheet/readValuesInChunks.js";
import type { SelectionData } from "../sheet/readSelection.js";
import { clearBulkJob, saveBulkJob } from "../storedJob/jobStore.js";
import { loadKeptResults, saveKeptResults } from "../storedJob/keptResults.js";
import type { BulkJob, KeptResult } from "../storedJob/BulkJob.js";
import { keptResultsText } from "./keptResultsText.js";
import { paneMessage } from "./paneMessage.js";
import { rowFingerprint } from "../sheet/rowFingerprint.js";
import { statusText } from "../sheet/statusText.js";
import type { CellScalar } from "../sheet/toCellWrite.js";
import { writeKeptBelow, type KeptRowsWritten } from "./writeKeptBelow.js";
import { writeOutputs, type WriteReport } from "../sheet/writeOutputs.js";
import type { WriteTarget } from "../sheet/WriteTarget.js";
import { SheetResultWriter } from "../sheet/SheetResultWriter.js";
import { SpendingGuardError } from "../../addin/SpendingGuardError.js";
import { removeInsertedColumn } from "../sheet/removeInsertedColumn.js";

/**
 * The part of `SpellClient` a bulk needs (a fake in specs, the shared client in the add-in).
 *
 * ## Example
 * ```ts
 * const source: BulkSource = await sharedClient();
 * ```
 */
export interface BulkSource {
  bulk(
    spellId: string,
    inputsList: Record<string, unknown>[],
    options?: BulkOptions
  ): Observable<BulkSnapshot>;
  resumeBulk(
    token: BulkResumeToken,
    count: number,
    options?: Pick<BulkOptions, "detach">
  ): Observable<BulkSnapshot>;
}

/** Where a bulk is in its life. */
export type BulkPhase = "idle" | "running" | "cancelling" | "done" | "cancelled" | "failed";

/**
 * What the bulk view shows, emitted after every snapshot and at the end.
 *
 * ## Example
 * ```ts
 * controller.progress$.subscribe((p) => (bar.value = p.finished / p.total));
 * ```
 */
export interface BulkProgress {
  phase: BulkPhase;
  spellId: string;
  total: number;
  /** Runs in a final state (the bar's "done"). */
  finished: number;
  counts: Record<RunState | "pending", number>;
  /** Rows marked stale (inputs changed; outputs not written). */
  stale: number;
  /** Rows marked cancelled. */
  cancelled: number;
  /**
   * Finished runs whose rows can no longer be found (deleted, or edited where another record now
   * is): their results are kept (`keptResults()`), never written elsewhere.
   */
  kept: number;
  /** Rows a "Retry failed rows" would run again. */
  retryable: number;
  elapsedMs: number;
  remainingMs: number | undefined;
  /** A sentence for the user when something needs saying (failure, resume hint). */
  message?: string;
}

/**
 * Least time between two written marks of a bulk (the rows written), as the engine's
 * `writtenMarkEveryMs`. Office saves all document settings at once and the per-row record
 * rewrites its handled-rows field, while a bulk of many chunks brings a snapshot several times a
 * second; a crash loses at most this much of the "already written" marks, whose rows a Resume
 * then writes again with the same outputs (nothing runs again). The command line's journal only
 * appends a line, so it marks every 500 ms. The intent, groups, moved rows and kept results are
 * saved at once.
 */
const PROGRESS_SAVE_INTERVAL_MS = 2_000;

/** How long cancel waits for the read of the groups after cancelBulk. */
const CANCEL_READ_TIMEOUT_MS = 15_000;

/** One record's input cells: raw values and number formats, in input order. */
interface RowCells {
  values: CellScalar[];
  formats?: string[];
}

interface ActiveBulk {
  job: BulkJob;
  target: WriteTarget;
  /** The engine running the bulk (absent before it is built). */
  runner?: BulkJobRunner<number>;
  /** Runs whose result, stale, lost or cancelled mark is handled (this run and before it). */
  handled: Set<number>;
  /** Per run: how it ended, as written in this run of the job. */
  statuses: Map<number, RowStatus>;
  stale: Set<number>;
  cancelled: Set<number>;
  /** Results whose rows can no longer be found: kept here and in the job, never written elsewhere. */
  lost: KeptResult[];
  /** Per run: its input cells as sent (raw values and formats), kept with a lost result. */
  cells: Array<RowCells | undefined>;
  /** Set once the user asked to cancel. */
  cancelling: boolean;
  /** Settles with the final progress when the bulk is done, cancelled or failed. */
  done: Promise<BulkProgress>;
  /** The bulk's start got no answer and may have happened: nothing is retried without asking. */
  mayHaveStarted?: boolean;
  /** The start failed (refused, or no answer): no run is going on for this bulk. */
  startFailed?: boolean;
  /** The service (or the spending gate) refused the start: nothing started, nothing to retry. */
  startRefused?: boolean;
  /** The column the start inserted for the status (removed again when nothing started). */
  insertedColumn?: number;
  /** What the start wrote in the status column (sheet row → text), before any run. */
  startStatuses?: Map<number, string>;
  /** Emits the progress every second while running, so that "Elapsed" ticks from the start. */
  ticker?: Subscription;
  /** Per run: its output cells were empty at plan (see `WriteTarget.outputsEmptyAtPlan`). */
  outputsEmptyAtPlan?: boolean[];
}

/** What a fresh start knows beyond the job (absent on Resume and Retry failed rows). */
type StartDetails = Pick<ActiveBulk, "insertedColumn" | "startStatuses" | "outputsEmptyAtPlan">;

/** How often the progress is emitted while nothing else happens (the elapsed time ticks). */
const TICK_MS = 1_000;

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
   */
  constructor(
    private readonly source: BulkSource,
    private readonly now: () => number = Date.now,
    private readonly beforeStart?: (runs: number) => Observable<unknown>
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
    const name = blockName();
    const job: BulkJob = {
      id: name,
      blockName: name,
      inputHeaders: plan.inputs.map((input) => String(selection.headers[input.column]).trim()),
      version: 1,
      spellId,
      sheet: selection.sheet,
      sheetId: selection.sheetId,
      headerRow: block.top,
      rows: plan.rows.map((row) => block.top + 1 + row.offset),
      inputColumns: plan.inputs.map((input) => block.left + input.column),
      inputNames: plan.inputs.map((input) => input.inputName),
      fingerprints: plan.rows.map((row) => row.fingerprint),
      statusColumn: plan.statusColumn,
      outputNames: plan.insertColumns ? [] : [...selection.existing.outputNames],
      ownedWidth: plan.ownedWidth,
      handled: [],
      startedAt: this.now(),
    };
    // A refused start changes nothing, neither stored nor in the sheet.
    if (this.active) throw new Error("A bulk is already running.");
    await prepareBlock(job, block, plan.insertColumns);
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
    if (!job.token || job.token.groupIds.length === 0) {
      throw new Error("This bulk has no group id stored, so it cannot be resumed.");
    }
    // Resume only reads back: a stored job whose windows do not name the group of every row (a
    // crafted or damaged one) would make the engine start those rows, with no inputs.
    const windows = [...checkpointOf(job).windows.values()];
    const covered = windows.reduce((sum, known) => sum + known.count, 0);
    if (
      windows.length === 0 ||
      covered !== job.rows.length ||
      windows.some((known) => !known.groupId || (known.sent ?? known.count) !== known.count)
    ) {
      throw new Error(
        "This bulk's stored state does not name the runs of all its rows, so Resume could only start them again. Forget it, then Run."
      );
    }
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
    const runs = retryableRuns(last);
    if (runs.length === 0) throw new Error("No failed rows to retry.");
    const { job } = last;
    const rows = runs.map((run) => job.rows[run]).filter((row) => row >= 0);
    if (rows.length === 0) throw new Error("The failed rows can no longer be found.");
    const inputs = await readRowInputs(job.sheetId ?? job.sheet, rows, job.inputColumns);
    const kept = rows
      .map((row, i) => ({ row, values: inputs.values[i], formats: inputs.formats[i] }))
      .filter(({ values }) => values.some((value) => String(value).trim() !== ""));
    const retry: BulkJob = {
      ...job,
      rows: kept.map(({ row }) => row),
      fingerprints: kept.map(({ values }) => rowFingerprint(values)),
      outputNames: [...last.target.layout.names],
      ownedWidth: last.target.ownedWidth,
      token: undefined,
      windows: undefined,
      counts: undefined,
      expired: undefined,
      handled: [],
      startedAt: this.now(),
    };
    // Date-formatted cells go as ISO 8601, as on Run; fingerprints stay over the raw values.
    const inputsList = kept.map(({ values, formats }) =>
      Object.fromEntries(
        job.inputNames.map((name, i) => [name, dateInputValue(values[i], formats[i])])
      )
    );
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
      lost: loadKeptResults(job.id),
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
      this.written(active, report, rows)
    );
    const resume = store.load();
    active.runner = new BulkJobRunner<number>({
      client: this.source,
      spellId: job.spellId,
      rows: job.rows.map((_, run) => run),
      inputsOf: (run) => inputsList[run],
      // One window over every row: one bulk (chunked into groups by the core), one token.
      windowSize: Math.max(1, job.rows.length),
      maxWindows: 1,
      store,
      writer,
      // The core's one reuse rule (as SPELL.BULK and SPELL.RUN): identical rows share one run,
      // rows whose results are still remembered are answered without a run.
      bulkOptions: {
        reuse: true,
        // Charged with the runs really sent, on every start: Run, Resume and Retry failed rows.
        ...(this.beforeStart ? { beforeStart: this.beforeStart } : {}),
      },
      writeOrder: "finished",
      writtenMarkEveryMs: PROGRESS_SAVE_INTERVAL_MS,
      cancelReadTimeoutMs: CANCEL_READ_TIMEOUT_MS,
      now: this.now,
      onProgress: () => this.emit(active, active.cancelling ? "cancelling" : "running"),
      ...(resume ? { resume } : {}),
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

  /** After each write: what the sheet now holds, kept results and moved rows saved at once. */
  private async written(
    active: ActiveBulk,
    report: WriteReport,
    rows: readonly FinishedJobRow<number>[]
  ): Promise<void> {
    const { job } = active;
    for (const row of rows) {
      active.statuses.set(row.index, row.status);
      active.handled.add(row.index);
      if (row.status === "cancelled") active.cancelled.add(row.index);
    }
    for (const run of report.stale) active.stale.add(run);
    const lost = new Set(report.lost);
    const kept = rows.filter((row) => lost.has(row.index) && row.status === "success");
    if (kept.length > 0) {
      // Paid results whose rows are gone: saved at once, so a reload does not lose them.
      active.lost.push(
        ...kept.map(({ index, status, outputs }) => ({
          status: statusText({ state: status as "success", outputs }),
          outputs,
          inputs: active.cells[index]?.values,
          formats: active.cells[index]?.formats,
        }))
      );
      await saveKeptResults(job.id, active.lost);
    }
    job.outputNames = active.target.layout.names;
    job.ownedWidth = active.target.ownedWidth;
    if (active.target.moved) {
      // The block or its rows moved: the job's positions are saved again (rare: after an edit).
      active.target.moved = false;
      job.headerRow = active.target.headerRow;
      job.inputColumns = active.target.inputColumns;
      job.statusColumn = active.target.layout.statusColumn;
      await saveBulkJob(job);
    }
  }

  private async finish(active: ActiveBulk, result: BulkJobResult): Promise<BulkProgress> {
    const { job } = active;
    switch (result.outcome) {
      case "interrupted":
        await this.endJob(active);
        await this.releaseBlock(active);
        return this.settle(active, "cancelled");
      case "incomplete":
      case "complete": {
        if (result.expired.length > 0) {
          // The service no longer knows the groups: resuming again cannot help. Kept (marked)
          // so the pane can say so and let the user dismiss it; Retry failed rows runs the rest
          // again.
          job.expired = true;
          await saveBulkJob(job);
          const rest = this.countStatus(active, "expired");
          return this.settle(
            active,
            "failed",
            `The service no longer knows this bulk (its runs expired or were deleted), so the results ` +
              `of its ${rest} unfinished row${rest === 1 ? "" : "s"} cannot be collected. Forget it, or ` +
              `use Retry failed rows to run ${rest === 1 ? "it" : "them"} again (${rest} new run${rest === 1 ? "" : "s"}).`
          );
        }
        await this.endJob(active);
        await this.releaseBlock(active);
        const { layout } = active.target;
        const columns = `${columnName(layout.statusColumn)}–${columnName(layout.statusColumn + layout.width - 1)}`;
        return this.settle(
          active,
          "done",
          `Results are in ${job.sheet}, columns ${columns}.` + keptMessage(active.lost.length)
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
      return this.settle(
        active,
        "failed",
        `${describe(error)} The bulk goes on in the service: use Resume to collect its results.`
      );
    }
    // The spending gate refused before anything was sent (the engine cannot tell its error from
    // a lost answer, so the pane says it: nothing started, nothing to keep).
    active.startFailed = true;
    if (startedNothing(kind) || error instanceof SpendingGuardError) {
      // Refused: nothing was started, nothing to keep, and the sheet as it was.
      await clearBulkJob(active.job.id);
      await this.undoStart(active);
      return this.settle(active, "failed", describe(error));
    }
    // The start got no answer after it may have reached the service (a 5xx, 408, a time-out, a
    // dropped connection): the stored job stays, so the pane asks before these rows are sent
    // again (the notice, and Run over this block, wait for the user's Forget).
    active.mayHaveStarted = true;
    return this.settle(
      active,
      "failed",
      `${describe(error)} The service may have started this bulk before its answer was lost: ` +
        "it is kept in this workbook. Check the rows' status cells; sending them again (Forget it, then Run) may pay for them twice."
    );
  }

  private writeFailed(active: ActiveBulk, error: unknown): BulkProgress {
    return this.settle(
      active,
      "failed",
      `Could not write to the sheet: ${describe(error)}.` +
        ((active.job.token?.groupIds.length ?? 0) > 0
          ? " The bulk is kept in this workbook: Resume collects its results."
          : "")
    );
  }

  /**
   * Results whose rows were deleted (or edited where another record now is) during the run, as
   * tab-separated text with a header line (status, then output names), for the user to paste
   * where they want: never written into the sheet by the pane.
   */
  keptResults(): string {
    const active = this.active ?? this.last;
    if (!active) return "";
    return keptResultsText(active.lost, active.target.layout.names, active.job.inputHeaders);
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
    if (!last || this.active || last.lost.length === 0)
      throw new Error("No kept results to write.");
    const written = await writeKeptBelow(last.job, last.lost);
    last.lost = [];
    if (last.job.keptOnly) {
      await clearBulkJob(last.job.id);
      await this.releaseBlock(last);
    } else {
      await saveKeptResults(last.job.id, []);
    }
    this.emit(last, this.progress.phase, `Kept results written to ${written.address}.`);
    return written;
  }

  /**
   * The bulk is over: its job is forgotten, unless results whose rows were deleted are kept
   * (then it stays, marked `keptOnly`, so the pane can offer them after a reload).
   */
  private async endJob(active: ActiveBulk): Promise<void> {
    if (active.lost.length === 0) {
      await clearBulkJob(active.job.id);
      return;
    }
    active.job.keptOnly = true;
    active.job.outputNames = active.target.layout.names;
    await saveBulkJob(active.job);
  }

  /** Deletes the block's name once nothing may need it (no retry, nothing kept). */
  private async releaseBlock(active: ActiveBulk): Promise<void> {
    const name = active.job.blockName;
    if (!name || active.lost.length > 0 || retryableRuns(active).length > 0) return;
    try {
      await deleteBlockName(name);
    } catch {
      // A name left behind harms nothing: it only names the block.
    }
  }

  /**
   * After a start the service refused: the column it inserted goes again (when it holds only
   * what the start wrote), and so does the block's name; nothing is offered to retry.
   */
  private async undoStart(active: ActiveBulk): Promise<void> {
    const column = active.insertedColumn;
    if (column !== undefined) {
      try {
        const statuses = active.startStatuses ?? new Map<number, string>();
        await removeInsertedColumn(
          active.job.sheetId ?? active.job.sheet,
          column,
          (row, value) => row === active.job.headerRow || statuses.get(row) === value
        );
      } catch {
        // Left in place: an empty column harms nothing, and the user can delete it.
      }
    }
    // Nothing to retry: the same start would be refused again (Run starts afresh).
    active.startRefused = true;
    await this.releaseBlock(active);
  }

  private countStatus(active: ActiveBulk, status: RowStatus): number {
    let count = 0;
    for (const each of active.statuses.values()) if (each === status) count++;
    return count;
  }

  private settle(active: ActiveBulk, phase: BulkPhase, message?: string): BulkProgress {
    active.ticker?.unsubscribe();
    this.active = undefined;
    this.last = active;
    return this.emit(active, phase, message);
  }

  private emit(active: ActiveBulk, phase: BulkPhase, message?: string): BulkProgress {
    const total = active.job.rows.length;
    const state = active.runner?.progress();
    const written = state?.counts ?? {};
    const counts = countRunStates([]);
    counts.success = written.success ?? 0;
    counts.failure = written.failure ?? 0;
    // A row whose run may have started, or whose group expired, has no result: an error here.
    counts.error = (written.error ?? 0) + (written.unknown ?? 0) + (written.expired ?? 0);
    const ended = counts.success + counts.failure + counts.error + (written.cancelled ?? 0);
    if (phase !== "cancelled" && !active.startFailed) {
      // The unfinished runs are the cancelled ones once cancelled (counted in `cancelled`).
      counts.inProgress = Math.min(state?.running ?? 0, total - ended);
      counts.pending = Math.max(0, total - ended - counts.inProgress);
    }
    const finished = counts.success + counts.failure + counts.error;
    const { elapsedMs, remainingMs } = progressEstimate(
      active.job.startedAt,
      this.now(),
      finished,
      total
    );
    const progress: BulkProgress = {
      phase,
      spellId: active.job.spellId,
      total,
      finished,
      counts,
      stale: active.stale.size,
      cancelled: active.cancelled.size,
      kept: active.lost.length,
      retryable: phase === "running" || phase === "cancelling" ? 0 : retryableRuns(active).length,
      elapsedMs,
      remainingMs: phase === "running" ? remainingMs : undefined,
      message,
    };
    this.progressSubject.next(progress);
    return progress;
  }
}

/**
 * Before any run, the status column says what this run is about: the rows left out because an
 * input holds an Excel error value say why (which input, which error), and the rows about to run
 * lose the previous run's status (`cancelled`, `success` beside new inputs would mislead until
 * each row lands). One read and one write, none when there is nothing to say.
 *
 * @return What was written (sheet row → status text).
 */
async function writeStartStatuses(
  job: BulkJob,
  plan: BulkPlan,
  selection: SelectionData
): Promise<Map<number, string>> {
  const statuses = new Map<number, string>();
  for (const { offset, status } of plan.errorRows) {
    statuses.set(job.headerRow + 1 + offset, status);
  }
  for (const { offset } of plan.rows) {
    const previous = selection.existing.cells[offset]?.[0];
    if (previous !== undefined && String(previous).trim() !== "") {
      statuses.set(job.headerRow + 1 + offset, "");
    }
  }
  if (statuses.size === 0) return statuses;
  await writeOutputs(
    writeTargetOf(job, "none"),
    [...statuses].map(([row, status], i) => ({
      run: -1 - i,
      row,
      fingerprint: "",
      status,
      checkInputs: false,
    }))
  );
  return statuses;
}

/**
 * Before a run, in one sync: inserts a new, empty column where the status column goes when the
 * user chose to insert columns rather than write over their cells (their cells move right;
 * outputs get columns inserted as they appear, see `WriteTarget.ownedWidth`), then names the
 * block (header row to last row, first input column to the status column) so that Excel keeps
 * track of it through inserts and deletes.
 */
async function prepareBlock(job: BulkJob, block: CellBlock, insertColumn: boolean): Promise<void> {
  await Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(job.sheetId ?? job.sheet);
    if (insertColumn) {
      const column = columnName(job.statusColumn);
      sheet.getRange(`${column}:${column}`).insert("Right");
    }
    if (job.blockName) {
      addBlockName(context, sheet, job.blockName, {
        top: block.top,
        left: block.left,
        rowCount: block.rowCount,
        columnCount: job.statusColumn - block.left + 1,
      });
    }
    await context.sync();
  });
}

function keptMessage(count: number): string {
  if (count === 0) return "";
  return (
    ` ${count} result${count === 1 ? "" : "s"} could not be placed: ${count === 1 ? "its row was" : "their rows were"} ` +
    "deleted or changed during the run. Nothing was written elsewhere; copy them with Copy kept results."
  );
}

/** Runs that did not end in success with outputs written. */
function retryableRuns(active: ActiveBulk): number[] {
  const runs: number[] = [];
  // Its start may have happened: sending it again is the user's choice (Forget, then Run).
  if (active.mayHaveStarted || active.startRefused) return runs;
  active.job.rows.forEach((_, run) => {
    const status = active.statuses.get(run);
    if (
      active.stale.has(run) ||
      active.cancelled.has(run) ||
      status === "failure" ||
      status === "error" ||
      status === "expired"
    ) {
      runs.push(run);
    } else if (!active.handled.has(run)) {
      runs.push(run); // never finished (the bulk failed or was interrupted)
    }
  });
  return runs;
}

/**
 * A resumed job's input cells, read once before re-attaching (so a result whose row is deleted
 * during the resumed run is kept with its inputs): a row's cells only when they still match the
 * fingerprint taken at submission; none when the sheet cannot be read.
 */
async function jobCells(job: BulkJob): Promise<Array<RowCells | undefined>> {
  const rows = job.rows.filter((row) => row >= 0);
  if (rows.length === 0) return [];
  try {
    const { values, formats } = await readRowInputs(
      job.sheetId ?? job.sheet,
      rows,
      job.inputColumns
    );
    const byRow = new Map(rows.map((row, i) => [row, i]));
    return job.rows.map((row, run) => {
      const i = byRow.get(row);
      return i === undefined || rowFingerprint(values[i]) !== job.fingerprints[run]
        ? undefined
        : { values: values[i], formats: formats[i] };
    });
  } catch {
    return [];
  }
}

/**
 * Reads the input cells of some rows and their number formats (one block from the first to the
 * last row, in chunks).
 */
async function readRowInputs(
  sheetName: string,
  rows: number[],
  inputColumns: number[]
): Promise<{ values: CellScalar[][]; formats: string[][] }> {
  // Reduced, not spread: a whole sheet's rows overflow the call stack as arguments.
  const top = rows.reduce((least, row) => Math.min(least, row), Infinity);
  const bottom = rows.reduce((most, row) => Math.max(most, row), -Infinity);
  const left = Math.min(...inputColumns);
  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const { rows: values, formats = [] } = await readValuesInChunks(
      context,
      sheet,
      {
        top,
        left,
        rowCount: bottom - top + 1,
        columnCount: Math.max(...inputColumns) - left + 1,
      },
      undefined,
      true
    );
    const pick = <T>(grid: T[][], row: number) =>
      inputColumns.map((column) => grid[row - top]?.[column - left]);
    return {
      values: rows.map((row) => pick(values, row)),
      formats: rows.map((row) => pick(formats, row) as string[]),
    };
  });
}

function idleProgress(spellId: string): BulkProgress {
  return {
    phase: "idle",
    spellId,
    total: 0,
    finished: 0,
    counts: countRunStates([]),
    stale: 0,
    cancelled: 0,
    kept: 0,
    retryable: 0,
    elapsedMs: 0,
    remainingMs: undefined,
  };
}

function describe(error: unknown): string {
  return paneMessage(error); // the pane's own words for the shared errors (its Settings tab)
}

function isEmptyCell(cell: unknown): boolean {
  return cell === undefined || cell === null || String(cell).trim() === "";
}
