/**
 * The grid's selection is the model's: what a person selects in the grid (a click, a drag, a
 * key) is the model's selection (what `getSelectedRange()` answers), and a selection made on the
 * model's side (the Name Box, Ctrl+G, Ctrl+arrows) is shown in the grid, the block moving to it.
 */
import jspreadsheet from "jspreadsheet-ce";
import type { WorksheetInstance } from "jspreadsheet-ce";
import { Observable, Subject } from "rxjs";
import { blockAddress, columnName } from "../../taskpane/sheet/a1Address.js";
import { LAST_ROW, parseAddress } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { quoteSheet } from "../excel/mockRanges.js";
import { markActiveCell } from "./activeCell.js";
import { columnHeaderPressed } from "./columnHeaderPicks.js";
import { quietly } from "./quietly.js";
import type { SheetBlock } from "./sheetBlock.js";
import type { SheetWindows } from "./sheetWindows.js";

/**
 * A selection of the model: its anchor (where it started) and its far end (where it moved); the
 * active cell is the anchor unless Enter or Tab moved it within the range (`active`).
 */
export interface ModelSelection {
  anchor: { row: number; column: number };
  end: { row: number; column: number };
  /** The active cell when Enter or Tab moved it within the range (else the anchor). */
  active?: { row: number; column: number };
}

/** What the selection needs of the grid: its sheets, their blocks and their windows. */
export interface SelectionTarget {
  worksheetOf(sheet: string): WorksheetInstance;
  blockOf(sheet: string): SheetBlock;
  hasSheet(sheet: string): boolean;
  activeSheet(): string;
  windows(): SheetWindows | undefined;
}

/**
 * The model's selection on each sheet of the grid, and its view in the grid.
 *
 * @example
 * ```ts
 * const selection = new GridSelection(workbook, target);
 * selection.goTo("Sheet2!B2:C9");
 * ```
 */
export class GridSelection {
  private readonly modelSelections = new Map<string, ModelSelection>();
  private readonly selectedCell = new Subject<{ sheet: string; address: string }>();

  /** The active cell (the selection's first cell) whenever a person selects. */
  readonly selections: Observable<{ sheet: string; address: string }> =
    this.selectedCell.asObservable();

  /**
   * @param workbook The model (it keeps the selection `getSelectedRange()` answers).
   * @param target The grid's sheets, blocks and windows.
   */
  constructor(
    private readonly workbook: MockWorkbook,
    private readonly target: SelectionTarget
  ) {}

  /** The model's selection on a sheet (A1 until a cell is selected). */
  of(sheet: string): ModelSelection {
    return (
      this.modelSelections.get(sheet) ?? {
        anchor: { row: 0, column: 0 },
        end: { row: 0, column: 0 },
      }
    );
  }

  /**
   * Goes to a cell or a range (the Name Box, Ctrl+G): the block moves there when it holds no
   * such cell, it is selected, and the view shows its first cell (the active cell) at its top
   * left when none of that cell was in view, as Excel's Go To does (a range's last cell in view
   * is not enough: A1:B37 gone to from row 12 shows A1).
   *
   * @param address "XFD1048576", "B2:C9", or with a sheet ("Sheet2!A1").
   * @throws Error when it is not an address of a sheet of the grid.
   */
  goTo(address: string): void {
    const { sheet: named, block } = parseAddress(address.trim());
    const sheet = named || this.target.activeSheet();
    if (!this.target.hasSheet(sheet)) throw new Error(`No sheet named ${sheet}`);
    this.select(
      sheet,
      {
        anchor: { row: block.top, column: block.left },
        end: { row: block.top + block.rowCount - 1, column: block.left + block.columnCount - 1 },
      },
      true
    );
  }

  /**
   * Selects in the model and in the grid, the view following the selection's active end (or
   * showing its anchor at the view's top left, for `jump`: Go To).
   */
  select(sheet: string, selection: ModelSelection, jump = false): void {
    const { anchor, end } = selection;
    // Go To keeps the active cell (the anchor) in the block, however large the range: what is
    // typed next goes into it. Enter or Tab within the range follow the active cell.
    const followed = jump ? anchor : (selection.active ?? end);
    this.target.windows()?.hold(sheet, followed.row, followed.column);
    this.take(sheet, selection);
    this.target.windows()?.reveal(sheet, followed.row, followed.column, jump);
  }

  /**
   * A sheet shown (its tab chosen, the workbook reopened): its own selection is the model's and
   * takes the keys typed next, the view left where that sheet's view was (Excel keeps a view per
   * sheet: a sheet shown again is scrolled as it was left, its active cell in view or not).
   */
  resume(sheet: string): void {
    this.take(sheet, this.of(sheet));
  }

  /** A sheet's selection is the model's, shown, and takes the keys typed next. */
  private take(sheet: string, selection: ModelSelection): void {
    this.modelSelections.set(sheet, selection);
    this.show(sheet);
    this.workbook.select(`${quoteSheet(sheet)}!${blockAddress(selectionBlock(selection))}`);
    this.announce(sheet, selection.active ?? selection.anchor);
    // Keys typed next go to this sheet's grid (as after a click in it).
    (jspreadsheet as unknown as { current: WorksheetInstance | null }).current =
      this.target.worksheetOf(sheet);
  }

  /** Sets a sheet's selection without showing it (a reopened workbook's sheets). */
  restore(sheet: string, selection: ModelSelection): void {
    this.modelSelections.set(sheet, selection);
  }

  /** Selects the block of cells that covers `cells` (an edit undone or redone), as `select`. */
  selectCells(sheet: string, cells: readonly { row: number; column: number }[]): void {
    // A loop, not Math.min(...rows): a paste of 100,000 cells would overflow the stack.
    const anchor = { row: Infinity, column: Infinity };
    const end = { row: -Infinity, column: -Infinity };
    for (const { row, column } of cells) {
      anchor.row = Math.min(anchor.row, row);
      anchor.column = Math.min(anchor.column, column);
      end.row = Math.max(end.row, row);
      end.column = Math.max(end.column, column);
    }
    this.select(sheet, { anchor, end });
  }

  /**
   * Shows the model's selection in the grid, as far as the block holds it (its end or its anchor:
   * a range larger than the block, gone to, shows its part with the active cell).
   */
  show(sheet: string): void {
    const worksheet = this.target.worksheetOf(sheet);
    const block = this.target.blockOf(sheet);
    const selection = this.modelSelections.get(sheet);
    quietly(worksheet, () => {
      const held = (cell: { row: number; column: number }) => block.holds(cell.row, cell.column);
      // A range may cover the block without a corner in it (a whole column, from row 1).
      const shown =
        selection && [selection.end, selection.anchor, selection.active].some((c) => c && held(c));
      if (!selection || !shown) {
        worksheet.resetSelection();
        return;
      }
      const clamp = (row: number, column: number) => [
        Math.max(0, Math.min(block.columnCount() - 1, column - block.column)),
        Math.max(0, Math.min(block.rowCount() - 1, row - block.row)),
      ];
      const [x1, y1] = clamp(selection.anchor.row, selection.anchor.column);
      const [x2, y2] = clamp(selection.end.row, selection.end.column);
      // jspreadsheet's selection is the range's corners (every range action reads them); the
      // active cell Enter or Tab moved within it is kept beside them.
      worksheet.updateSelectionFromCoords(x1, y1, x2, y2);
      const active = selection.active && held(selection.active) ? selection.active : undefined;
      markActiveCell(
        worksheet,
        active && { x: active.column - block.column, y: active.row - block.row }
      );
    });
  }

  /**
   * The grid selected its cells (x1, y1) to (x2, y2) of the block: the model selects them.
   */
  selectedInGrid(sheet: string, x1: number, y1: number, x2: number, y2: number): void {
    const block = this.target.blockOf(sheet);
    // jspreadsheet tells the range's top left and bottom right; its own corners say which one
    // the selection started from (its anchor).
    const [ax, ay, ex, ey] = cornersOf(this.target.worksheetOf(sheet), x1, y1, x2, y2);
    const selection: ModelSelection = {
      anchor: { row: block.row + ay, column: block.column + ax },
      end: { row: block.row + ey, column: block.column + ex },
    };
    const wholeColumn = Math.min(y1, y2) === 0 && Math.max(y1, y2) === block.rowCount() - 1;
    if (wholeColumn && columnHeaderPressed()) {
      // A column header clicked: the entire column, not the block's rows (columnHeaderPicks).
      [selection.anchor.row, selection.end.row] = ay <= ey ? [0, LAST_ROW] : [LAST_ROW, 0];
    }
    // Shift+arrows "extend the selection of cells by one cell" (Microsoft, "Keyboard shortcuts
    // in Excel") from its anchor: the active cell stays where it is while the range holds it.
    const { anchor, active } = this.of(sheet);
    if (active && sameCell(anchor, selection.anchor) && selectionHolds(selection, active)) {
      selection.active = active;
    }
    markActiveCell(
      this.target.worksheetOf(sheet),
      selection.active && {
        x: selection.active.column - block.column,
        y: selection.active.row - block.row,
      }
    );
    this.modelSelections.set(sheet, selection);
    this.workbook.select(`${quoteSheet(sheet)}!${blockAddress(selectionBlock(selection))}`);
    this.announce(sheet, selection.active ?? selection.anchor);
    // A move from the keyboard to a cell out of view: the view follows, except along a whole
    // row or column chosen by its header (Excel keeps the view where it is then).
    const wholeRow = Math.min(x1, x2) === 0 && Math.max(x1, x2) === block.columnCount() - 1;
    if (wholeColumn) return;
    this.target
      .windows()
      ?.reveal(sheet, selection.end.row, wholeRow ? undefined : selection.end.column);
  }

  /** Tells the formula bar which cell is active after a tab was chosen. */
  tabChosen(): void {
    // The model's selection, not jspreadsheet's: its coordinates are the block's, and the block
    // may start far from A1.
    const sheet = this.target.activeSheet();
    const selection = this.of(sheet);
    this.announce(sheet, selection.active ?? selection.anchor);
  }

  private announce(sheet: string, cell: { row: number; column: number }): void {
    this.selectedCell.next({ sheet, address: `${columnName(cell.column)}${cell.row + 1}` });
  }
}

/**
 * The block of cells a selection covers.
 *
 * @example
 * ```ts
 * selectionBlock({ anchor: { row: 4, column: 1 }, end: { row: 1, column: 1 } }); // B2:B5
 * ```
 */
export function selectionBlock({ anchor, end }: ModelSelection): CellBlock {
  return {
    top: Math.min(anchor.row, end.row),
    left: Math.min(anchor.column, end.column),
    rowCount: Math.abs(end.row - anchor.row) + 1,
    columnCount: Math.abs(end.column - anchor.column) + 1,
  };
}

function sameCell(a: { row: number; column: number }, b: { row: number; column: number }): boolean {
  return a.row === b.row && a.column === b.column;
}

/**
 * Whether a selection covers a cell.
 *
 * @example
 * ```ts
 * selectionHolds({ anchor: { row: 0, column: 0 }, end: { row: 2, column: 1 } }, { row: 1, column: 1 }); // true
 * ```
 */
export function selectionHolds(
  selection: ModelSelection,
  cell: { row: number; column: number }
): boolean {
  const { top, left, rowCount, columnCount } = selectionBlock(selection);
  return (
    cell.row >= top &&
    cell.row < top + rowCount &&
    cell.column >= left &&
    cell.column < left + columnCount
  );
}

/**
 * jspreadsheet's corners (anchor first) of the range (x1, y1) to (x2, y2), or those as given when
 * its corners are of another range.
 */
function cornersOf(
  worksheet: WorksheetInstance,
  x1: number,
  y1: number,
  x2: number,
  y2: number
): number[] {
  const corners = (worksheet as unknown as { selectedCell?: unknown[] | null }).selectedCell;
  const [cx1, cy1, cx2, cy2] = (corners ?? []).map(Number);
  const same =
    Math.min(cx1, cx2) === Math.min(x1, x2) &&
    Math.max(cx1, cx2) === Math.max(x1, x2) &&
    Math.min(cy1, cy2) === Math.min(y1, y2) &&
    Math.max(cy1, cy2) === Math.max(y1, y2);
  return same ? [cx1, cy1, cx2, cy2] : [x1, y1, x2, y2];
}
