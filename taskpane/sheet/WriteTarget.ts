import type { OutputLayout } from "./outputLayout.js";

/**
 * Where a bulk's results go, and what of its header row is already written.
 *
 * ## Example
 * ```ts
 * const target: WriteTarget = { sheet: "Sheet1", headerRow: 0, inputColumns: [0, 1], layout, headersWritten: 0, ownedWidth: 8 };
 * ```
 */
export interface WriteTarget {
  sheet: string;
  headerRow: number;
  /** Absolute input columns, in the order the fingerprints were taken. */
  inputColumns: number[];
  layout: OutputLayout;
  /** Header cells already written (status header included); updated by `writeOutputs`. */
  headersWritten: number;
  /**
   * Columns from the status column on that are the run's to write (checked free before the run,
   * inserted by it, or an earlier run's). An output needing a column beyond gets a new column
   * inserted there first, so no cell of the user's is written over; updated by `writeOutputs`.
   * @default every column of the layout (no insert)
   */
  ownedWidth?: number;
  /**
   * The workbook name over the block (see `trackedBlock`). When set, every write first reads
   * where the block is now (`locateBlock`), and with `rows` and `fingerprints` the runs' rows are
   * found again by their inputs when they moved (`relocateRows`).
   */
  blockName?: string;
  /** Header text of each input column, in input order (to find inputs after column edits). */
  inputHeaders?: string[];
  /** Per run: its current absolute row, -1 when its inputs are in no row any more (updated). */
  rows?: number[];
  /** Per run: `rowFingerprint` of its inputs when submitted. */
  fingerprints?: string[];
  /** Data rows in the block now (set by `locateBlock`). */
  dataRows?: number;
  /** Set when the block, a column or a run's row moved (the job must be saved again). */
  moved?: boolean;
  /** What the header row holds of ours (status column and output columns), to rewrite on change. */
  headerKey?: string;
  /**
   * Per run: true when its output cells were empty when the run was planned. A value found in
   * such a cell at write time was typed by the user during the run: the row is put back as it
   * was and its result kept (reported `lost`), never written over it. Absent or false: no check
   * (a resumed job, or rows whose earlier outputs are the add-in's to replace).
   */
  outputsEmptyAtPlan?: boolean[];
}
