import type { CellScalar } from "../sheet/toCellWrite.js";

/**
 * A finished run whose row could no longer be found (deleted, or edited where another record now
 * is): its status and outputs, kept for the user and never written into a row by the pane; the
 * user may copy it, or have it written as a new record under the block (`writeKeptBelow`).
 *
 * ## Example
 * ```ts
 * const kept: KeptResult = { status: "success", outputs: { summary: "Late but fine." }, inputs: ["Arrived late."] };
 * ```
 */
export interface KeptResult {
  status: string;
  outputs?: Record<string, unknown>;
  /**
   * The record's input cells as they were when it was sent, in input order (raw values, not
   * ISO-converted dates). Absent when not known (its row was deleted while the workbook was
   * closed, or a job kept by an earlier version).
   */
  inputs?: CellScalar[];
  /** The input cells' number formats, with `inputs` (a date stays a date when written back). */
  formats?: string[];
}
