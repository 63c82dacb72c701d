/**
 * What one `writeOutputs` call did.
 *
 * ## Example
 * ```ts
 * const report: WriteReport = await writeOutputs(target, results);
 * console.log(`${report.stale.length} rows changed during the run`);
 * ```
 */
export interface WriteReport {
  /** Runs whose status (and outputs) are now in the sheet. */
  written: number[];
  /** Runs not written because their input cells changed; marked stale instead. */
  stale: number[];
  /**
   * Runs whose inputs are in no row of the block any more (row deleted, or edited where another
   * record now is): nothing written anywhere; the caller keeps their results.
   */
  lost: number[];
  readSyncs: number;
  writeSyncs: number;
}
