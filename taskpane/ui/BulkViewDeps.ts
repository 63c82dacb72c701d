import type { BulkRunController } from "../bulk/bulkRunController.js";
import type { SelectionData, SheetBlock } from "../sheet/readSelection.js";
import type { BulkJob } from "../storedJob/BulkJob.js";

/**
 * What the bulk view needs; the task pane passes the real modules.
 *
 * ## Example
 * ```ts
 * const deps: BulkViewDeps = { controller, readSelection, freezeFormulas, recentSpells, rememberSpell, loadBulkJobs, clearBulkJob };
 * ```
 */
export interface BulkViewDeps {
  controller: BulkRunController;
  /**
   * With `statusColumn`: status and outputs go there (a column the user picked). With `range`:
   * that block instead of the selection (read again after the user clicked elsewhere).
   */
  readSelection(options?: { statusColumn?: number; range?: SheetBlock }): Promise<SelectionData>;
  /** The sheet and first column of the user's selection (to pick the results' column). */
  selectedColumn(): Promise<{ sheetId: string; sheet: string; column: number }>;
  freezeFormulas(): Promise<{ frozen: number }>;
  recentSpells(): Promise<string[]>;
  rememberSpell(spellId: string): Promise<string[]>;
  /**
   * Reads the jobs' per-row records (`openRowRecords`) before `loadBulkJobs` is first asked;
   * absent in specs whose jobs have none.
   */
  openRowRecords?(): Promise<void>;
  /** Every job stored in the document (one per block). */
  loadBulkJobs(): BulkJob[];
  /** Forgets one job (by id; without: the one an earlier version stored). */
  clearBulkJob(id?: string): Promise<void>;
  /** Stored jobs that may not be used, with why (reported, to be forgotten). */
  damagedBulkJobs?(): { id: string | undefined; problem: string }[];
}
