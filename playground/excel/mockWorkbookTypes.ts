/** Types of the mock workbook model (`MockWorkbook`): cells, counters and options. */
export type MockCellValue = string | number | boolean;

/** One cell of the model. */
export interface MockCell {
  value: MockCellValue;
  /** Set when the cell holds a formula (what Excel would show in the formula bar). */
  formula?: string;
  /**
   * Set when the text was typed after an apostrophe (`'=1+2`): Excel's prefix character. The
   * value is the text without it; the formula bar and the cell's editor show it with it, so the
   * text, edited, stays text (it is never read as a formula).
   */
  quotePrefix?: true;
  numberFormat: string;
}

/** Counters of what the add-in asked of "Excel". */
export interface MockWorkbookStats {
  /** Every `context.sync()`, including the implicit one at the end of `Excel.run`. */
  syncs: number;
  /** Syncs that carried at least one write to a sheet the user sees (not a very hidden one). */
  writeSyncs: number;
  /**
   * Syncs whose writes all went to very hidden sheets (the add-in's own records, counted apart
   * from the writes into the user's cells, as settings saves are).
   */
  hiddenWriteSyncs: number;
  /** Syncs that carried at least one load. */
  readSyncs: number;
  /** `Excel.run` batches. */
  runs: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
  /** Time spent inside the mock's own sync work (to subtract from totals in benchmarks). */
  mockMs: number;
  /** `settings.saveAsync` calls, and the largest saved settings (JSON bytes). */
  settingsSaves: number;
  /** The largest settings a save was asked to store (JSON bytes), refused saves included. */
  largestSettingsBytes: number;
  /** Saves refused for being over `settingsLimitBytes`. */
  failedSettingsSaves: number;
}

/** What the tests can put in the model. */
export interface MockWorkbookOptions {
  /** Initial cells per sheet: rows of values starting at A1. @default { Sheet1: [] } */
  sheets?: Record<string, MockCellValue[][]>;
  /** The selected range, e.g. "Sheet1!A1:B501". @default "Sheet1!A1" */
  selection?: string;
  /** @default 5 MB */
  payloadLimitBytes?: number;
  /** Largest document settings a save accepts (JSON bytes). @default 1 MB, as Excel desktop */
  settingsLimitBytes?: number;
  /**
   * The highest ExcelApi requirement set of the host (e.g. "1.5": no `Range.calculate`). When
   * given, `Office.context.requirements.isSetSupported` answers from it and APIs of later sets
   * fail at sync with `ApiNotFound`. @default undefined: no `requirements`, every API modelled works
   */
  excelApiVersion?: string;
}
