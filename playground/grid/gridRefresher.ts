/**
 * The grid shows the model again where the formula engine says it changed: changes are gathered
 * and shown once per microtask, inputs rewritten where they differ, values shown everywhere asked.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import type { CellBlock } from "../excel/a1.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import type { DisplayChange } from "../formulas/formulaEngine.js";
import { inputAt } from "./gridEdits.js";
import { appendRows, quietly } from "./quietly.js";
import { BLOCK_COLUMN_LIMIT, BLOCK_LIMIT } from "./sheetBlock.js";

/** What the refresher needs of the grid. */
export interface RefreshTarget {
  /** The worksheet of a sheet, if the grid shows it. */
  worksheetOf(sheet: string): WorksheetInstance | undefined;
  /** Which model cell the worksheet's first cell shows. */
  blockOf(sheet: string): { row: number; column: number } | undefined;
  /** Every sheet the grid shows. */
  sheetNames(): string[];
  /** Shows the model's cell in a grid cell. */
  render(sheet: string, cell: HTMLElement | null, column: number, row: number): void;
}

/**
 * Gathers the formula engine's changes and shows them in the grid.
 *
 * @example
 * ```ts
 * const refresher = new GridRefresher(workbook, target, () => refreshed.next());
 * engine.displayChanges.subscribe((change) => refresher.queue(change));
 * ```
 */
export class GridRefresher {
  private readonly pending = new Map<string, CellBlock[] | "all">();
  private flushQueued = false;

  /**
   * @param workbook The model.
   * @param target The grid.
   * @param shown Called after each flush (the grid shows the model's latest values).
   */
  constructor(
    private readonly workbook: MockWorkbook,
    private readonly target: RefreshTarget,
    private readonly shown: () => void
  ) {}

  /** Remembers a change; the grid shows it at the end of the current task. */
  queue(change: DisplayChange): void {
    const sheets = change.sheet ? [change.sheet] : this.target.sheetNames();
    for (const sheet of sheets) {
      const blocks = this.pending.get(sheet);
      if (!change.block || !change.sheet) this.pending.set(sheet, "all");
      else if (blocks === undefined) this.pending.set(sheet, [change.block]);
      else if (blocks !== "all") blocks.push(change.block); // pushed: a fill sends thousands
    }
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const pending = [...this.pending];
      this.pending.clear();
      for (const [sheet, blocks] of pending) this.refresh(sheet, blocks);
      this.shown();
    });
  }

  /** Shows the model's cells again: inputs where they changed, values everywhere asked. */
  private refresh(sheet: string, blocks: CellBlock[] | "all"): void {
    const worksheet = this.target.worksheetOf(sheet);
    if (!worksheet) return;
    const origin = this.target.blockOf(sheet) ?? { row: 0, column: 0 };
    this.growTo(worksheet, sheet, blocks, origin);
    const data = worksheet.getData(false, false) as unknown[][];
    const held = {
      top: origin.row,
      left: origin.column,
      rowCount: data.length,
      columnCount: data[0]?.length ?? 0,
    };
    const areas = blocks === "all" ? [held] : blocks;
    quietly(worksheet, () => {
      for (const area of areas) {
        // The part of the area the grid holds; (x, y) in the grid is (column, row) in the model.
        const top = Math.max(area.top, held.top);
        const bottom = Math.min(area.top + area.rowCount, held.top + held.rowCount);
        const left = Math.max(area.left, held.left);
        const right = Math.min(area.left + area.columnCount, held.left + held.columnCount);
        for (let row = top; row < bottom; row++) {
          const y = row - origin.row;
          for (let column = left; column < right; column++) {
            const x = column - origin.column;
            const input = inputAt(this.workbook, sheet, row, column);
            if (String(data[y][x] ?? "") !== input) {
              worksheet.setValueFromCoords(x, y, input, true);
            } else {
              this.target.render(sheet, worksheet.getCellFromCoords(x, y), x, y);
            }
          }
        }
      }
    });
  }

  /**
   * Adds rows and columns when the model holds cells just past the edge of the block the grid
   * holds (in the blocks changed, or anywhere on the sheet for "all"), up to BLOCK_LIMIT rows: a
   * result or a paste shows at once; no cell of the model moves. Farther cells show when the
   * view reaches them (the block moves there).
   */
  private growTo(
    worksheet: WorksheetInstance,
    sheet: string,
    blocks: CellBlock[] | "all",
    origin: { row: number; column: number }
  ): void {
    const data = worksheet.getData(false, false) as unknown[][];
    // Counted in the model's rows and columns from here on.
    const heldRows = origin.row + data.length;
    const heldColumns = origin.column + (data[0]?.length ?? 0);
    let rows = heldRows;
    let columns = heldColumns;
    const rowLimit = origin.row + BLOCK_LIMIT;
    const columnLimit = origin.column + BLOCK_COLUMN_LIMIT;
    const used =
      blocks === "all" ? [this.workbook.usedBlock(sheet)].filter((block) => block) : blocks;
    for (const block of used as CellBlock[]) {
      const bottom = Math.min(block.top + block.rowCount, rowLimit);
      const right = Math.min(block.left + block.columnCount, columnLimit);
      if (bottom <= rows && right <= columns) continue;
      // Only cells with something in them need the grid to reach them.
      for (let row = Math.max(block.top, origin.row); row < bottom; row++) {
        for (let column = Math.max(block.left, origin.column); column < right; column++) {
          if (row < rows && column < columns) continue;
          const cell = inputAt(this.workbook, sheet, row, column);
          if (cell === "") continue;
          rows = Math.max(rows, row + 1);
          columns = Math.max(columns, column + 1);
        }
      }
    }
    if (rows > heldRows) appendRows(worksheet, rows - heldRows);
    if (columns > heldColumns) {
      quietly(worksheet, () => worksheet.insertColumn(columns - heldColumns));
    }
  }
}
