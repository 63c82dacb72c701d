/** What the formula engine keeps for each formula, where a formula is, and what it reads. */
import type { CellReference, RangeReference } from "fast-formula-parser";
import { LAST_ROW, type CellBlock } from "../excel/a1.js";
import type { MockCell, MockWorkbook } from "../excel/mockWorkbook.js";
import type { CallSite } from "./formulaValues.js";
import type { VolatileValue } from "./volatileValues.js";

/** What the engine keeps for one formula cell (keyed by the model's cell, which moves with it). */
export interface FormulaState {
  formula: string;
  dependencies: { sheet: string; block: CellBlock }[];
  calls: CallSite[];
  /**
   * What its volatile functions (RAND, NOW, ...) gave in the calculation that made its calls: a
   * call's value arriving completes the formula with them (see `keepVolatileValues`).
   */
  volatiles?: VolatileValue[];
  /** The block the last value covered (the anchor alone, or a spill). */
  covered: CellBlock;
  /** The anchors whose spills the formula reads with `#` (`=SUM(H1#)`): evaluated again when they resize. */
  spillAnchors?: { sheet: string; block: CellBlock }[];
  /** The block a blocked spill wants (it shows #SPILL! until that block is clear). */
  wanted?: CellBlock;
  /**
   * When the formula was entered (a count, 1 for the first): of two blocked spills wanting the
   * same freed cells, the one entered first takes them.
   */
  entered: number;
}

/** Where a formula is: its sheet, zero-based row and column. */
export interface Position {
  sheet: string;
  row: number;
  column: number;
}

/**
 * Where every cell of the model is (formulas and values), keyed by the model's cell objects,
 * which move with structural edits.
 *
 * @param workbook The model.
 * @return Each stored cell's position.
 */
export function formulaPositions(workbook: MockWorkbook): Map<MockCell, Position> {
  const positions = new Map<MockCell, Position>();
  workbook.forEachCell((sheet, row, column, cell) => positions.set(cell, { sheet, row, column }));
  return positions;
}

/**
 * The block a reference of a formula reads (on the formula's sheet when it names none); a range
 * to the sheet's last row (A:A, A2:A1048576) reads to the last used row, not to row 1,048,576. A
 * formula depends on the whole reference all the same (`referencedBlock(…, true)`): a value typed
 * below the last used row changes what it reads.
 *
 * @param workbook The model.
 * @param reference A cell or a range, as the parser gives it (one-based).
 * @param formulaSheet The sheet of the formula being evaluated.
 * @param whole The whole reference (a dependency), not only what is read of it.
 * @return The sheet and the block.
 */
export function referencedBlock(
  workbook: MockWorkbook,
  reference: CellReference | RangeReference,
  formulaSheet = "",
  whole = false
): { sheet: string; block: CellBlock } {
  const sheet = reference.sheet ?? formulaSheet;
  if (!("from" in reference)) {
    return {
      sheet,
      block: { top: reference.row - 1, left: reference.col - 1, rowCount: 1, columnCount: 1 },
    };
  }
  const toLastRow = reference.to.row > LAST_ROW;
  const lastRow =
    whole || !toLastRow
      ? reference.to.row
      : Math.min(reference.to.row, workbook.lastRow(sheet) + 1);
  return {
    sheet,
    block: {
      top: reference.from.row - 1,
      left: reference.from.col - 1,
      rowCount: Math.max(1, lastRow - reference.from.row + 1),
      columnCount: reference.to.col - reference.from.col + 1,
    },
  };
}
