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

/** What the refresher needs of the grid. */
export interface RefreshTarget {
  /** The worksheet of a sheet, if the grid shows it. */
  worksheetOf(sheet: string): WorksheetInstance | undefined;
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
    this.growTo(worksheet, sheet, blocks);
    const data = worksheet.getData(false, false) as unknown[][];
    const areas =
      blocks === "all"
        ? [{ top: 0, left: 0, rowCount: data.length, columnCount: data[0]?.length ?? 0 }]
        : blocks;
    quietly(worksheet, () => {
      for (const area of areas) {
        for (let row = area.top; row < Math.min(data.length, area.top + area.rowCount); row++) {
          const columns = Math.min(data[row].length, area.left + area.columnCount);
          for (let column = area.left; column < columns; column++) {
            const input = inputAt(this.workbook, sheet, row, column);
            if (String(data[row][column] ?? "") !== input) {
              worksheet.setValueFromCoords(column, row, input, true);
            } else {
              this.target.render(sheet, worksheet.getCellFromCoords(column, row), column, row);
            }
          }
        }
      }
    });
  }

  /**
   * Adds rows and columns when the model holds cells past the grid's edge (in the blocks changed,
   * or anywhere on the sheet for "all"): the view grows, no cell of the model moves.
   */
  private growTo(worksheet: WorksheetInstance, sheet: string, blocks: CellBlock[] | "all"): void {
    const data = worksheet.getData(false, false) as unknown[][];
    let rows = data.length;
    let columns = data[0]?.length ?? 0;
    const used =
      blocks === "all" ? [this.workbook.usedBlock(sheet)].filter((block) => block) : blocks;
    for (const block of used as CellBlock[]) {
      const bottom = block.top + block.rowCount;
      const right = block.left + block.columnCount;
      if (bottom <= rows && right <= columns) continue;
      // Only cells with something in them need the grid to reach them.
      for (let row = block.top; row < bottom; row++) {
        for (let column = block.left; column < right; column++) {
          if (row < rows && column < columns) continue;
          const cell = inputAt(this.workbook, sheet, row, column);
          if (cell === "") continue;
          rows = Math.max(rows, row + 1);
          columns = Math.max(columns, column + 1);
        }
      }
    }
    if (rows > data.length) appendRows(worksheet, rows - data.length);
    const had = data[0]?.length ?? 0;
    if (columns > had) quietly(worksheet, () => worksheet.insertColumn(columns - had));
  }
}
