/** The cell grid of a mock workbook: writing (as Excel parses input) and reading blocks. */
import { columnName } from "./a1.js";
import type { CellBlock } from "./a1.js";
import { quoteSheet } from "./mockRanges.js";
import { numberFromText, type NumericText } from "./numericText.js";
import type { MockCell, MockCellValue } from "./mockWorkbookTypes.js";
import type { WritableProperty } from "./syncOperation.js";
import type { WorkbookState } from "./workbookState.js";

/** Writes `data` (one value or rows of values; `null` leaves a cell alone) to `property` of a block. */
export function applyWrite(
  state: WorkbookState,
  sheet: string,
  block: CellBlock,
  property: WritableProperty,
  data: unknown
): void {
  for (let r = 0; r < block.rowCount; r++) {
    for (let c = 0; c < block.columnCount; c++) {
      const item = Array.isArray(data) ? (data as unknown[][])[r][c] : data;
      if (item === null || item === undefined) continue; // null leaves the cell as it is
      const row = block.top + r;
      const column = block.left + c;
      if (property === "numberFormat") {
        cellAt(state, sheet, row, column, true).numberFormat = String(item);
      } else {
        writeValue(state, sheet, row, column, item as MockCellValue);
      }
    }
  }
}

/** Excel's parsing of written input, as documented on `Range.values`. */
export function writeValue(
  state: WorkbookState,
  sheet: string,
  row: number,
  column: number,
  item: MockCellValue
): void {
  const anchor = `${sheet}!${columnName(column)}${row + 1}`;
  const spill = state.spills.get(anchor);
  if (spill) {
    // The formula goes, and with it every value it spilled.
    state.spills.delete(anchor);
    for (let r = 0; r < spill.rowCount; r++) {
      for (let c = 0; c < spill.columnCount; c++) {
        const spilled = state.sheets
          .get(sheet)
          ?.get(spill.top + r)
          ?.get(spill.left + c);
        if (spilled) spilled.value = "";
      }
    }
  }
  const cell = cellAt(state, sheet, row, column, true);
  delete cell.formula;
  delete cell.quotePrefix;
  if (typeof item !== "string" || cell.numberFormat === "@") {
    cell.value = item;
  } else if (item.startsWith("'")) {
    cell.value = item.slice(1);
    cell.quotePrefix = true;
  } else if (numberFromText(item)) {
    // "50%", "1,234", "$12.50", "1e3": a number, formatted as typed when the cell is General.
    const typed = numberFromText(item) as NumericText;
    cell.value = typed.value;
    if (cell.numberFormat === "General") cell.numberFormat = typed.format;
  } else if (/^[=+\-@]./s.test(item) && !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(item)) {
    cell.formula = item.startsWith("=") ? item : `=${item}`;
    cell.value = "#NAME?";
  } else if (/^(true|false)$/i.test(item)) {
    cell.value = item.toLowerCase() === "true";
  } else {
    cell.value = item;
  }
}

/**
 * The used range of a sheet as `Worksheet.getUsedRange(valuesOnly)` sees it: the smallest
 * block holding every cell with a value or formula (with `valuesOnly` false, also cells whose
 * number format was set). Undefined for an empty sheet.
 */
export function usedBlockOf(
  state: WorkbookState,
  sheet: string,
  valuesOnly: boolean
): CellBlock | undefined {
  let top = Infinity;
  let bottom = -1;
  let left = Infinity;
  let right = -1;
  for (const [row, cells] of state.sheets.get(sheet) ?? []) {
    for (const [column, cell] of cells) {
      const used =
        cell.value !== "" ||
        cell.formula !== undefined ||
        (!valuesOnly && cell.numberFormat !== "General");
      if (!used) continue;
      top = Math.min(top, row);
      bottom = Math.max(bottom, row);
      left = Math.min(left, column);
      right = Math.max(right, column);
    }
  }
  if (bottom < 0) return undefined;
  return { top, left, rowCount: bottom - top + 1, columnCount: right - left + 1 };
}

/** Reads `property` of a block, as a loaded range (or a `RangeView`'s `cellAddresses`) shows it. */
export function readBlock(
  state: WorkbookState,
  sheet: string,
  block: CellBlock,
  property: string
): unknown[][] {
  if (property === "cellAddresses") {
    // A RangeView's addresses: the visible rows only.
    const hidden = state.hidden.get(sheet);
    const visible: string[][] = [];
    for (let r = 0; r < block.rowCount; r++) {
      if (hidden?.has(block.top + r)) continue;
      visible.push(
        Array.from(
          { length: block.columnCount },
          (_, c) => `${quoteSheet(sheet)}!${columnName(block.left + c)}${block.top + r + 1}`
        )
      );
    }
    return visible;
  }
  const rows: unknown[][] = [];
  for (let r = 0; r < block.rowCount; r++) {
    const cells = state.sheets.get(sheet)?.get(block.top + r);
    const row: unknown[] = [];
    for (let c = 0; c < block.columnCount; c++) {
      const cell = cells?.get(block.left + c);
      if (property === "numberFormat") row.push(cell?.numberFormat ?? "General");
      else if (property === "formulas") row.push(cell?.formula ?? cell?.value ?? "");
      else if (property === "text") row.push(String(cell?.value ?? ""));
      else row.push(cell?.value ?? "");
    }
    rows.push(row);
  }
  return rows;
}

/** The cell at a position; with `create`, an empty General cell is stored there when none is. */
export function cellAt(
  state: WorkbookState,
  sheet: string,
  row: number,
  column: number,
  create: boolean
): MockCell {
  let rows = state.sheets.get(sheet);
  if (!rows) {
    if (!create) return { value: "", numberFormat: "General" };
    rows = new Map();
    state.sheets.set(sheet, rows);
  }
  let cells = rows.get(row);
  if (!cells) {
    if (!create) return { value: "", numberFormat: "General" };
    cells = new Map();
    rows.set(row, cells);
  }
  let cell = cells.get(column);
  if (!cell) {
    cell = { value: "", numberFormat: "General" };
    if (create) cells.set(column, cell);
  }
  return cell;
}

/** Every cell holding a value or a formula, with its sheet and A1 address (copies of the cells). */
export function nonEmptyCells(
  state: WorkbookState
): Array<{ sheet: string; address: string; cell: MockCell }> {
  const found: Array<{ sheet: string; address: string; cell: MockCell }> = [];
  for (const [sheet, rows] of state.sheets) {
    for (const [row, cells] of rows) {
      for (const [column, cell] of cells) {
        if (cell.value !== "" || cell.formula) {
          found.push({ sheet, address: `${columnName(column)}${row + 1}`, cell: { ...cell } });
        }
      }
    }
  }
  return found;
}
