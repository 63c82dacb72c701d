import {
  BehaviorSubject,
  EMPTY,
  Subject,
  catchError,
  concat,
  concatMap,
  defer,
  endWith,
  first,
  ignoreElements,
  lastValueFrom,
  map,
  merge,
  of,
  take,
  takeUntil,
  takeWhile,
  tap,
  timeout,
  type Observable,
} from "rxjs";
import type { BulkOptions, BulkResumeToken, BulkSnapshot, RunState } from "../../src";
import { classifyJobFailure, countRunStates, startedNothing, TERMINAL_STATES } from "../../src";
import { columnName } from "../sheet/a1Address.js";
import type { CellBlock } from "../sheet/a1Address.js";
import { addBlockName, blockName, deleteBlockName } from "../sheet/trackedBlock.js";
import { writeTargetOf } from "./writeTargetOf.js";
import type { BulkPlan } from "./planBulk.js";
import { progressEstimate } from "./progressEstimate.js";
import { dateInputValue } from "../sheet/dateInputValue.js";
import { readValuesInChunks } from "../sheet/readValuesInChunks.js";
import type { SelectionData } from "../sheet/readSelection.js";
import {
  clearBulkJob,
  loadKeptResults,
  saveBulkJob,
  saveBulkProgress,
  saveKeptResults,
} from "./resumeState.js";
import type { BulkJob, KeptResult } from "./resumeState.js";
import { keptResultsText } from "./keptResultsText.js";
import { paneMessage } from "./paneMessage.js";
import { rowFingerprint } from "../sheet/rowFingerprint.js";
import { CANCELLED_STATUS, statusText } from "./statusText.js";
import type { CellScalar } from "../sheet/toCellWrite.js";
import { writeKeptBelow, type KeptRowsWritten } from "../sheet/writeKeptBelow.js";
import { writeOutputs } from "../sheet/writeOutputs.js";
import type { RowResult } from "../sheet/writeOutputs.js";
import type { WriteTarget } from "../sheet/WriteTarget.js";

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
 * Least time between two saves of a bulk's progress (the rows written). Office saves all
 * document settings at once (~110 KB for a 10,000-row job, ~1.2 MB for 100,000), and a bulk of
 * many chunks brings a snapshot several times a second; a crash loses at most this much of the
 * "already written" marks, whose rows a Resume then writes again with the same outputs (nothing
 * runs again). The token, moved rows, kept results and the end are saved at once.
 */
const PROGRESS_SAVE_INTERVAL_MS = 2_000;

/** How long cancel waits for the read of the groups after cancelBulk. */
const CANCEL_READ_TIMEOUT_MS = 15_000;

/** One record's input cells: raw values and number formats, in input order. */
interface RowCells {
  values: CellScalar[];
  formats?: string[];
}

/** How a bulk ended: the core's snapshots completed or failed, or the user cancelled. */
type BulkEnd = { kind: "complete" } | { kind: "error"; error: unknown } | { kind: "cancel" };

/** What the controller's pipeline handles, in order: snapshots, then one end. */
type BulkEvent = { snapshot: BulkSnapshot } | { end: BulkEnd };

interface ActiveBulk {
  job: BulkJob;
  target: WriteTarget;
  handled: Set<number>;
  stale: Set<number>;
  cancelled: Set<number>;
  /** Results whose rows can no longer be found: kept here and in the job, never written elsewhere. */
  lost: KeptResult[];
  /** Per run: its input cells as sent (raw values and formats), kept with a lost result. */
  cells: Array<RowCells | undefined>;
  lastApplied: BulkSnapshot | undefined;
  /** The first end seen (set when it arrives, before the writes queued ahead of it are done). */
  ended: BulkEnd | undefined;
  /** Emits once when the user cancels. */
  cancel$: Subject<void>;
  /** When the progress was last saved, and whether rows were written since. */
  progressSavedAt: number;
  progressUnsaved: boolean;
  /** Settles with the final progress when the bulk is done, cancelled or failed. */
  done: Promise<BulkProgress>;
  /** The bulk's start got no answer and may have happened: nothing is retried without asking. */
  mayHaveStarted?: boolean;
}

/**
 * Runs one spell over rows of a sheet through one `bulk` of the core, and keeps the sheet and the
 * document's resume state up to date as runs finish.
 *
 * One pipeline per bulk: the core's snapshots (until cancel), then once more the groups read
 * after a cancel, then one end, each handled in turn (`concatMap`). Per snapshot (at most one per
 * poll) that has newly finished runs: one `writeOutputs` call (reads to check where the block
 * and its rows are now, then one write sync) and one save of the resume state. Snapshots that
 * arrive while a write is going on are folded: each holds every run, so one overtaken by a newer
 * snapshot is skipped and only the newest is applied. Cancel unsubscribes from the core (which
 * sends cancelBulk); finished rows keep their outputs, the rest are marked cancelled. A write that
 * fails detaches the bulk (`BulkOptions.detach`: no cancelBulk, the paid runs finish at the
 * service) and ends the pipeline; Resume collects the results.
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

  constructor(
    private readonly source: BulkSource,
    private readonly now: () => number = Date.now
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
    if (plan.errorRows.length > 0) await writeSkippedStatuses(job, plan);
    const cells = plan.rows.map(({ offset }) => ({
      values: plan.inputs.map(({ column }) => selection.rows[offset][column]),
      formats:
        selection.formats && plan.inputs.map(({ column }) => selection.formats![offset]?.[column]),
    }));
    return this.launch(
      job,
      plan.rows.map((row) => row.inputs),
      cells
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
    const token = job.token;
    return this.run(
      job,
      (detach) => this.source.resumeBulk(token, job.rows.length, { detach }),
      await jobCells(job)
    );
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
   * Cancels the running bulk: unsubscribes (the core sends one cancelBulk per unfinished group),
   * then reads the groups once more, so runs that finished since the last poll (and were paid
   * for) get their outputs written; only the rows still unfinished are marked cancelled. Then the
   * resume state is forgotten.
   */
  async cancel(): Promise<void> {
    const active = this.active;
    if (!active || active.ended) return;
    active.ended = { kind: "cancel" };
    this.emit(active, "cancelling");
    active.cancel$.next();
    await active.done;
  }

  private async launch(
    job: BulkJob,
    inputsList: Record<string, unknown>[],
    cells: Array<RowCells | undefined>
  ): Promise<BulkProgress> {
    // A refused start changes nothing stored: the job of the running bulk stays as it is.
    if (this.active) throw new Error("A bulk is already running.");
    // Stored before anything is sent: if the pane dies before the first group id is known, the
    // next start can at least warn that rows may have run.
    await saveBulkJob(job);
    // The core's one reuse rule (as SPELL.BULK and SPELL.RUN): identical rows share one run, rows
    // whose results are still remembered are answered without a run.
    return this.run(
      job,
      (detach) => this.source.bulk(job.spellId, inputsList, { reuse: true, detach }),
      cells
    );
  }

  private run(
    job: BulkJob,
    source: (detach: Observable<void>) => Observable<BulkSnapshot>,
    cells: Array<RowCells | undefined>
  ): Promise<BulkProgress> {
    if (this.active) return Promise.reject(new Error("A bulk is already running."));
    const cancel$ = new Subject<void>();
    // A write that fails detaches the bulk (its runs go on, paid for) instead of cancelling it.
    const detach$ = new Subject<void>();
    const active: ActiveBulk = {
      job,
      // Shares the job's rows: rows found again after a sort or insert are saved with it.
      target: writeTargetOf(job, "rows"),
      handled: new Set(job.handled),
      // Kept earlier in this job (rows deleted before a reload) stay kept.
      lost: loadKeptResults(job.id),
      cells,
      stale: new Set(),
      cancelled: new Set(),
      lastApplied: undefined,
      ended: undefined,
      cancel$,
      progressSavedAt: Number.NEGATIVE_INFINITY,
      progressUnsaved: false,
      done: Promise.resolve(idleProgress(job.spellId)),
    };
    this.active = active;
    this.emit(active, "running");

    const events$: Observable<BulkEvent> = merge(
      defer(() => source(detach$)).pipe(
        map((snapshot): BulkEvent => ({ snapshot })),
        endWith<BulkEvent>({ end: { kind: "complete" } }),
        catchError((error: unknown) => of<BulkEvent>({ end: { kind: "error", error } })),
        // Unsubscribing makes the core send cancelBulk for every unfinished group.
        takeUntil(cancel$)
      ),
      cancel$.pipe(
        take(1),
        concatMap(() =>
          concat(
            this.readAfterCancel(active).pipe(map((snapshot): BulkEvent => ({ snapshot }))),
            of<BulkEvent>({ end: { kind: "cancel" } })
          )
        )
      )
    ).pipe(takeWhile((event) => !("end" in event), true));

    let newest: BulkSnapshot | undefined;
    active.done = lastValueFrom(
      events$.pipe(
        tap((event) => {
          if ("snapshot" in event) newest = event.snapshot;
          else active.ended ??= event.end;
        }),
        concatMap((event) =>
          "end" in event
            ? defer(() => this.finish(active, event.end))
            : // Overtaken while a write was going on: the newer snapshot holds all of this one.
              event.snapshot === newest
              ? defer(() => this.apply(active, event.snapshot)).pipe(
                  ignoreElements(),
                  // Detached before the error unsubscribes: the core leaves the runs going.
                  tap({ error: () => detach$.next() })
                )
              : EMPTY
        ),
        // The sheet could not be written (sheet deleted, workbook busy...): the bulk was
        // detached, not cancelled, so its paid runs finish at the service and the stored job
        // lets Resume collect them.
        catchError((error: unknown) => of(this.writeFailed(active, error)))
      )
    );
    return active.done;
  }

  /**
   * After cancelBulk, the groups once more: once the cancel has reached the service every run is
   * final, so one read shows what finished (and was paid for) since the last poll. Nothing when
   * the read fails or takes too long: the rows not seen finished are marked cancelled.
   */
  private readAfterCancel(active: ActiveBulk): Observable<BulkSnapshot> {
    return defer(() => {
      const token = active.job.token;
      if (!token || token.groupIds.length === 0) return EMPTY;
      return this.source.resumeBulk(token, active.job.rows.length).pipe(
        first((snapshot) => snapshot.done),
        timeout({ first: CANCEL_READ_TIMEOUT_MS }),
        catchError(() => EMPTY)
      );
    });
  }

  /**
   * Saves the job's progress now (`force`) or when the last save is `PROGRESS_SAVE_INTERVAL_MS`
   * old; otherwise remembers that it is unsaved (saved by a later apply or at the end).
   */
  private async saveProgress(active: ActiveBulk, force: boolean): Promise<void> {
    const now = this.now();
    if (!force && now - active.progressSavedAt < PROGRESS_SAVE_INTERVAL_MS) {
      active.progressUnsaved = true;
      return;
    }
    active.progressSavedAt = now;
    active.progressUnsaved = false;
    await saveBulkProgress(active.job);
  }

  private writeFailed(active: ActiveBulk, error: unknown): BulkProgress {
    // The rows written so far stay marked for a Resume (best effort: the settings may fail too).
    if (active.progressUnsaved) void this.saveProgress(active, true).catch(() => undefined);
    return this.settle(
      active,
      "failed",
      `Could not write to the sheet: ${describe(error)}.` +
        ((active.job.token?.groupIds.length ?? 0) > 0
          ? " The bulk is kept in this workbook: Resume collects its results."
          : "")
    );
  }

  private async apply(active: ActiveBulk, snapshot: BulkSnapshot): Promise<void> {
    const { job } = active;
    let changed = false;
    if (!sameToken(job.token, snapshot.resume)) {
      // Saved before anything is written: if the write fails or the pane dies during it, Resume
      // still finds the groups.
      job.token = snapshot.resume;
      await this.saveProgress(active, true);
    }
    const results: RowResult[] = [];
    const cancelling = active.ended?.kind === "cancel";
    snapshot.runs.forEach((entry, run) => {
      if (active.handled.has(run) || !TERMINAL_STATES.includes(entry.state as RunState)) return;
      // After cancel, a run the cancel stopped is marked cancelled by `finish`, not as an error.
      if (cancelling && entry.state === "error") return;
      results.push({
        run,
        row: job.rows[run],
        fingerprint: job.fingerprints[run],
        status: statusText(entry),
        outputs: entry.state === "success" ? entry.outputs : undefined,
      });
    });
    if (results.length > 0) {
      const report = await writeOutputs(active.target, results);
      for (const run of [...report.written, ...report.stale, ...report.lost]) {
        active.handled.add(run);
      }
      for (const run of report.stale) active.stale.add(run);
      const lost = new Set(report.lost);
      const kept = results.filter((result) => lost.has(result.run) && result.outputs);
      if (kept.length > 0) {
        // Paid results whose rows are gone: saved at once, so a reload does not lose them.
        active.lost.push(
          ...kept.map(({ run, status, outputs }) => ({
            status,
            outputs,
            inputs: active.cells[run]?.values,
            formats: active.cells[run]?.formats,
          }))
        );
        await saveKeptResults(job.id, active.lost);
      }
      job.outputNames = active.target.layout.names;
      job.ownedWidth = active.target.ownedWidth;
      job.handled = job.rows.map((_, run) => run).filter((run) => active.handled.has(run));
      changed = true;
    }
    if (active.target.moved) {
      // The block or its rows moved: the job's positions are saved again (rare: after an edit).
      active.target.moved = false;
      job.headerRow = active.target.headerRow;
      job.inputColumns = active.target.inputColumns;
      job.statusColumn = active.target.layout.statusColumn;
      await saveBulkJob(job);
      active.progressSavedAt = this.now();
      active.progressUnsaved = false;
    } else if (changed) await this.saveProgress(active, false);
    active.lastApplied = snapshot;
    this.emit(active, active.ended?.kind === "cancel" ? "cancelling" : "running");
  }

  private async finish(active: ActiveBulk, ended: BulkEnd): Promise<BulkProgress> {
    if (ended.kind === "cancel") {
      const marks: RowResult[] = [];
      active.job.rows.forEach((row, run) => {
        if (active.handled.has(run)) return;
        marks.push({
          run,
          row,
          fingerprint: active.job.fingerprints[run],
          status: CANCELLED_STATUS,
          checkInputs: false,
        });
        active.cancelled.add(run);
      });
      if (marks.length > 0) await writeOutputs(active.target, marks);
      for (const run of active.cancelled) active.handled.add(run);
      await this.endJob(active);
      await this.releaseBlock(active);
      return this.settle(active, "cancelled");
    }
    if (ended.kind === "complete") {
      await this.endJob(active);
      await this.releaseBlock(active);
      const { layout } = active.target;
      const columns = `${columnName(layout.statusColumn)}–${columnName(layout.statusColumn + layout.width - 1)}`;
      return this.settle(
        active,
        "done",
        `Results are in ${active.job.sheet}, columns ${columns}.` + keptMessage(active.lost.length)
      );
    }
    // The core's one failure policy (the command line's too).
    const resumable = (active.job.token?.groupIds.length ?? 0) > 0;
    const failure = classifyJobFailure(ended.error, resumable);
    if (failure === "expired") {
      // The service no longer knows the groups: resuming again cannot help. Kept (marked) so the
      // pane can say so and let the user dismiss it; Retry failed rows runs the rest again.
      active.job.expired = true;
      await saveBulkJob(active.job);
      const rest = active.job.rows.length - active.handled.size;
      return this.settle(
        active,
        "failed",
        `The service no longer knows this bulk (its runs expired or were deleted), so the results ` +
          `of its ${rest} unfinished row${rest === 1 ? "" : "s"} cannot be collected. Forget it, or ` +
          `use Retry failed rows to run ${rest === 1 ? "it" : "them"} again (${rest} new run${rest === 1 ? "" : "s"}).`
      );
    }
    if (resumable) {
      if (active.progressUnsaved) await this.saveProgress(active, true);
      return this.settle(
        active,
        "failed",
        `${describe(ended.error)} The bulk goes on in the service: use Resume to collect its results.`
      );
    }
    if (startedNothing(failure)) {
      // Refused: nothing was started, nothing to keep.
      await clearBulkJob(active.job.id);
      return this.settle(active, "failed", describe(ended.error));
    }
    // The start got no answer after it may have reached the service (a 5xx, 408, a time-out, a
    // dropped connection): the stored job stays, so the pane asks before these rows are sent
    // again (the notice, and Run over this block, wait for the user's Forget).
    active.mayHaveStarted = true;
    return this.settle(
      active,
      "failed",
      `${describe(ended.error)} The service may have started this bulk before its answer was lost: ` +
        "it is kept in this workbook. Check the rows' status cells; sending them again (Forget it, then Run) may pay for them twice."
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

  private settle(active: ActiveBulk, phase: BulkPhase, message?: string): BulkProgress {
    this.active = undefined;
    this.last = active;
    return this.emit(active, phase, message);
  }

  private emit(active: ActiveBulk, phase: BulkPhase, message?: string): BulkProgress {
    const snapshot = active.lastApplied;
    const total = active.job.rows.length;
    const counts = snapshot ? { ...snapshot.counts } : { ...countRunStates([]), pending: total };
    if (phase === "cancelled") {
      // The unfinished runs are the cancelled ones now (counted in `cancelled`), also those the
      // read after cancelBulk showed as ended by the cancel.
      counts.inProgress = 0;
      counts.pending = 0;
      for (const run of active.cancelled) {
        if (snapshot?.runs[run]?.state === "error") counts.error--;
      }
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
 * Writes the status of the rows left out because an input holds an Excel error value (which
 * input, which error), so the user sees why those rows have no outputs. One read and one write.
 */
async function writeSkippedStatuses(job: BulkJob, plan: BulkPlan): Promise<void> {
  await writeOutputs(
    writeTargetOf(job, "none"),
    plan.errorRows.map(({ offset, status }, i) => ({
      run: -1 - i,
      row: job.headerRow + 1 + offset,
      fingerprint: "",
      status,
      checkInputs: false,
    }))
  );
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
  if (active.mayHaveStarted) return runs;
  active.job.rows.forEach((_, run) => {
    const state = active.lastApplied?.runs[run]?.state;
    if (
      active.stale.has(run) ||
      active.cancelled.has(run) ||
      state === "failure" ||
      state === "error"
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

function sameToken(a: BulkResumeToken | undefined, b: BulkResumeToken): boolean {
  return (
    a !== undefined &&
    a.groupIds.length === b.groupIds.length &&
    a.groupIds.every((id, i) => id === b.groupIds[i]) &&
    a.chunkSizes.length === b.chunkSizes.length
  );
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
