import {
  resumeTokenNeeded,
  type BulkResumeToken,
  type Checkpoint,
  type CheckpointStore,
  type JobOutcome,
  type KnownWindow,
  type WindowIntent,
  type WrittenMark,
} from "spellrun";
import { saveBulkJob, saveBulkProgress } from "./jobStore.js";
import { type BulkJob, type JobWindow } from "./BulkJob.js";

/**
 * The task pane's checkpoint store for the core's bulk-job engine: the pane's stored job
 * (`BulkJob`, see `jobStore`), which travels with the workbook so that a reload, another
 * computer or Excel on the web can resume. The per-row part (rows, fingerprints, the resume
 * token, the rows written) goes to the record sheet (`rowRecordStore`), the rest to the document
 * settings (a few hundred bytes per job).
 *
 * - the first intent stores the whole job (before its bulkStart can leave);
 * - a group stores the core's resume token (window 0's is the job's `token`);
 * - a refused start removes its window (an empty list: the service started nothing);
 * - a written mark stores the rows written (`handled`) and their counts.
 *
 * Each record saves the settings before the engine goes on (`savesAllAtOnce`: Office saves all
 * of them at once, so the engine waits its mark interval after any save, and hands the last mark
 * with the end). A complete or cancelled job is not saved at its end: the pane decides what stays
 * (kept results, an expired bulk) and forgets the rest. Never the API key.
 *
 * ## Example
 * ```ts
 * const store = new DocumentCheckpointStore(job, { stored: true });
 * await new BulkJobRunner({ ...options, store, resume: store.load() }).run();
 * ```
 */
export class DocumentCheckpointStore implements CheckpointStore {
  readonly savesAllAtOnce = true;
  private stored: boolean;

  /**
   * @param job the job; its `token`, `handled`, `counts` and `windows` are kept up to date here
   * @param options `stored`: the job is in the document already (a resume)
   */
  constructor(
    private readonly job: BulkJob,
    options: { stored?: boolean } = {}
  ) {
    this.stored = options.stored ?? false;
  }

  /** What the document holds of the job's windows and rows written; undefined for a new job. */
  load(): Checkpoint | undefined {
    if (!this.stored) return undefined;
    return checkpointOf(this.job);
  }

  /** @param intent the window about to be sent */
  async recordIntent(intent: WindowIntent): Promise<void> {
    const windows = windowsOf(this.job).filter((known) => known.window !== intent.window);
    windows.push({
      window: intent.window,
      count: intent.count,
      ...(intent.sent === undefined ? {} : { sent: intent.sent }),
    });
    this.setWindows(windows);
    if (this.stored) {
      await saveBulkProgress(this.job);
      return;
    }
    // The whole job (rows, fingerprints, where results go) before anything is sent.
    await saveBulkJob(this.job);
    this.stored = true;
  }

  /**
   * @param window the window
   * @param groupId its (first) group
   * @param token the core's resume token, when the group id cannot rebuild it
   */
  async recordGroup(window: number, groupId: string, token?: BulkResumeToken): Promise<void> {
    const windows = windowsOf(this.job);
    const known = windows.find((entry) => entry.window === window);
    if (!known) return;
    known.token = token ?? {
      spellId: this.job.spellId,
      groupIds: [groupId],
      chunkSizes: [known.sent ?? known.count],
    };
    this.setWindows(windows);
    await saveBulkProgress(this.job);
  }

  /** @param window the window whose start the service refused */
  async recordRefused(window: number): Promise<void> {
    this.setWindows(windowsOf(this.job).filter((known) => known.window !== window));
    if (this.stored) await saveBulkProgress(this.job);
  }

  /** @param mark the rows written */
  async recordWritten(mark: WrittenMark): Promise<void> {
    this.setWritten(mark);
    await saveBulkProgress(this.job);
  }

  /**
   * A job that stopped (a failure) is saved with its last rows written, for Resume. A complete or
   * cancelled one is not: the pane forgets it, or saves it whole (kept results, an expired bulk).
   *
   * @param outcome how the run ended
   * @param _rows rows written in input order (in `lastMark` too)
   * @param lastMark the rows written since the last mark
   */
  async recordEnd(outcome: JobOutcome, _rows: number, lastMark?: WrittenMark): Promise<void> {
    if (lastMark) this.setWritten(lastMark);
    if (outcome === "complete" || outcome === "interrupted") return;
    if (lastMark && this.stored) await saveBulkProgress(this.job);
  }

  private setWritten(mark: WrittenMark): void {
    const handled: number[] = [];
    for (let run = 0; run < mark.rows; run++) handled.push(run);
    for (const run of mark.alsoWritten ?? []) handled.push(run);
    this.job.handled = handled;
    this.job.counts = { ...mark.counts };
  }

  private setWindows(windows: JobWindow[]): void {
    windows.sort((a, b) => a.window - b.window);
    this.job.windows = windows;
    this.job.token = windows.find((known) => known.window === 0)?.token;
  }
}

/**
 * A stored job's windows: its own list, or (a job of the pane, or of an earlier version) window
 * 0 over every run with the job's token.
 */
function windowsOf(job: BulkJob): JobWindow[] {
  if (job.windows) return job.windows.map((known) => ({ ...known }));
  return [{ window: 0, count: job.rows.length, ...(job.token ? { token: job.token } : {}) }];
}

/**
 * The engine's checkpoint of a stored job: its windows (with their tokens), the rows written
 * (the first unbroken run of `handled`, and the rest) and their counts.
 *
 * ## Example
 * ```ts
 * const resume = checkpointOf(loadBulkJob()!);
 * ```
 * @param job the stored job
 * @return the checkpoint
 */
export function checkpointOf(job: BulkJob): Checkpoint {
  const windows = new Map<number, KnownWindow>();
  for (const known of windowsOf(job)) {
    windows.set(known.window, {
      count: known.count,
      ...(known.sent === undefined ? {} : { sent: known.sent }),
      // A chunk intent's token may name no group yet (or "" for its first chunk).
      ...(known.token?.groupIds[0] ? { groupId: known.token.groupIds[0] } : {}),
      // The token only where the group id cannot rebuild it (several groups, shared runs).
      ...(known.token && resumeTokenNeeded(known.token) ? { token: known.token } : {}),
    });
  }
  const handled = [...job.handled].sort((a, b) => a - b);
  let writtenRows = 0;
  while (writtenRows < handled.length && handled[writtenRows] === writtenRows) writtenRows++;
  return {
    writtenRows,
    counts: { ...job.counts },
    windows,
    ...(writtenRows < handled.length ? { alsoWritten: handled.slice(writtenRows) } : {}),
  };
}
