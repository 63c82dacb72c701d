import type { Subscription } from "rxjs";
import type { BulkJobRunner, RowStatus } from "spellrun";
import type { BulkJob, KeptResult } from "../storedJob/BulkJob.js";
import type { WriteTarget } from "../sheet/WriteTarget.js";
import type { BulkProgress } from "./bulkProgress.js";
import type { RowCells } from "./jobCells.js";

/**
 * One bulk of the controller while it runs, and after it (for Retry failed rows and the kept
 * results): the job, where it writes, the engine, and the pane's marks of its rows.
 *
 * ## Example
 * ```ts
 * if (active.cancelling) return;
 * ```
 */
export interface ActiveBulk {
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
  kept: KeptResult[];
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
  /** The runs the spending gate counted for this bulk's start (given back when refused). */
  charged?: number;
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
export type StartDetails = Pick<
  ActiveBulk,
  "insertedColumn" | "startStatuses" | "outputsEmptyAtPlan"
>;

/** How often the progress is emitted while nothing else happens (the elapsed time ticks). */
export const TICK_MS = 1_000;
