/**
 * A workbook model as a saved file holds it: sheets (ids, visibility, hidden rows), cells (value,
 * formula, number format), spills, names and the document settings last saved with
 * `settings.saveAsync`. Plain data (structured-clone and JSON safe), so the playground can keep
 * it in the page's IndexedDB and open it again after a reload.
 */
import type { CellBlock } from "./a1.js";
import type { MockCell } from "./mockWorkbookTypes.js";
import type { WorkbookState } from "./workbookState.js";

/** The format's version: a snapshot of another version is not opened (the demo is). */
export const WORKBOOK_SNAPSHOT_VERSION = 1;

/**
 * One sheet of a snapshot; cells as `[row, column, value, formula?, numberFormat?, quotePrefix?]`,
 * zero-based (`quotePrefix` only when set: snapshots saved before it was kept open as they were).
 */
export interface SheetSnapshot {
  name: string;
  id: string;
  visibility: string;
  hiddenRows: number[];
  cells: [number, number, MockCell["value"], string | null, string | null, true?][];
}

/**
 * A whole workbook as plain data.
 *
 * ## Example
 * ```ts
 * const snapshot: WorkbookSnapshot = workbook.snapshot();
 * const reopened = MockWorkbook.fromSnapshot(snapshot);
 * ```
 */
export interface WorkbookSnapshot {
  version: typeof WORKBOOK_SNAPSHOT_VERSION;
  sheets: SheetSnapshot[];
  spills: [string, CellBlock][];
  names: [string, { sheet: string; block: CellBlock } | null][];
  /** The document settings as last saved (what a reopened file has). */
  settings: Record<string, unknown>;
}

/**
 * The snapshot of a workbook's state; cells that hold nothing (an empty General cell) are left out.
 *
 * @param state The workbook's state.
 * @param savedSettings Its document settings as last saved.
 * @return The snapshot (sharing nothing with the state).
 */
export function takeSnapshot(
  state: WorkbookState,
  savedSettings: Record<string, unknown>
): WorkbookSnapshot {
  const sheets: SheetSnapshot[] = [];
  for (const [name, rows] of state.sheets) {
    const cells: SheetSnapshot["cells"] = [];
    for (const [row, columns] of rows) {
      for (const [column, cell] of columns) {
        const format = cell.numberFormat === "General" ? null : cell.numberFormat;
        const empty = cell.value === "" && cell.formula === undefined && !cell.quotePrefix;
        if (empty && format === null) continue;
        const saved: SheetSnapshot["cells"][number] = [
          row,
          column,
          cell.value,
          cell.formula ?? null,
          format,
        ];
        if (cell.quotePrefix) saved.push(true);
        cells.push(saved);
      }
    }
    sheets.push({
      name,
      id: state.sheetIds.get(name) ?? "",
      visibility: state.visibility.get(name) ?? "Visible",
      hiddenRows: [...(state.hidden.get(name) ?? [])],
      cells,
    });
  }
  return {
    version: WORKBOOK_SNAPSHOT_VERSION,
    sheets,
    spills: [...state.spills].map(([anchor, block]) => [anchor, { ...block }]),
    names: [...state.names].map(([name, target]) => [
      name,
      target ? { sheet: target.sheet, block: { ...target.block } } : null,
    ]),
    settings: structuredClone(savedSettings),
  };
}

/**
 * Fills an empty workbook state from a snapshot.
 *
 * @param state An empty state (no sheets).
 * @param snapshot The snapshot.
 * @throws Error when the snapshot is not of this version.
 */
export function restoreSnapshot(state: WorkbookState, snapshot: WorkbookSnapshot): void {
  if (snapshot.version !== WORKBOOK_SNAPSHOT_VERSION) {
    throw new Error(`A workbook snapshot of version ${String(snapshot.version)} is not known`);
  }
  for (const sheet of snapshot.sheets) {
    const rows = new Map<number, Map<number, MockCell>>();
    for (const [row, column, value, formula, format, quotePrefix] of sheet.cells) {
      let columns = rows.get(row);
      if (!columns) rows.set(row, (columns = new Map()));
      const cell: MockCell = { value, numberFormat: format ?? "General" };
      if (formula !== null) cell.formula = formula;
      if (quotePrefix) cell.quotePrefix = true;
      columns.set(column, cell);
    }
    state.sheets.set(sheet.name, rows);
    state.sheetIds.set(sheet.name, sheet.id);
    if (sheet.visibility !== "Visible") state.visibility.set(sheet.name, sheet.visibility);
    if (sheet.hiddenRows.length > 0) state.hidden.set(sheet.name, new Set(sheet.hiddenRows));
  }
  for (const [anchor, block] of snapshot.spills) state.spills.set(anchor, { ...block });
  for (const [name, target] of snapshot.names) state.names.set(name, target ?? undefined);
}
