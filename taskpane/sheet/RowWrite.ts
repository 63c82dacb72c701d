/**
 * One finished row to put in the sheet.
 *
 * ## Example
 * ```ts
 * const result: RowWrite = { run: 0, row: 1, fingerprint, status: "success", outputs: { summary: "…" } };
 * ```
 */
export interface RowWrite {
  /** Index of the run in its bulk. */
  run: number;
  /** Absolute, zero-based sheet row. */
  row: number;
  /** Fingerprint of the row's input cells when the run was submitted. */
  fingerprint: string;
  /** Status cell text. */
  status: string;
  /** Outputs to write (successful runs only). */
  outputs?: Record<string, unknown>;
  /** False for marks that are right whatever the inputs now hold ("cancelled"). @default true */
  checkInputs?: boolean;
}
