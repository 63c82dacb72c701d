/**
 * The grid's copy and paste, done to the model: a copy remembers the model's inputs of the copied
 * cells (formulas as written); a paste goes to the model over the whole selection as one edit of
 * the model's undo history (ModelUndo), and the grid then shows the model.
 */
import type { SpreadsheetOptions, WorksheetInstance } from "jspreadsheet-ce";
import { blockAddress } from "../../taskpane/sheet/a1Address.js";
import type { MockWorkbook } from "../excel/mockWorkbook.js";
import { copiedCells, pasteOverSelection, type Copied } from "./gridClipboard.js";
import { inputAt } from "./gridEdits.js";
import { selectionBlock, type ModelSelection } from "./gridSelection.js";
import type { ModelUndo } from "./modelUndo.js";

/** What the clipboard events need of the grid. */
export interface ClipboardTarget {
  /** The sheet a worksheet shows. */
  sheetOf(instance: WorksheetInstance): string;
  /** The model cell of a worksheet's first cell. */
  originOf(instance: WorksheetInstance): { row: number; column: number };
  /** The model's selection on a sheet. */
  selectionOf(sheet: string): ModelSelection;
  /** Selects in the model and in the grid. */
  select(sheet: string, selection: ModelSelection): void;
}

/**
 * jspreadsheet's handlers for copy and paste, over the model. The copied cells are kept between
 * the two (one copy per grid, as one clipboard).
 *
 * @example
 * ```ts
 * jspreadsheet(element, { ...clipboardEvents(workbook, history, target), worksheets });
 * ```
 */
export function clipboardEvents(
  workbook: MockWorkbook,
  history: ModelUndo,
  target: ClipboardTarget
): Pick<SpreadsheetOptions, "oncopy" | "onbeforepaste"> {
  let copied: Copied | undefined;
  return {
    oncopy: (instance, range) => {
      const sheet = target.sheetOf(instance);
      copied = copiedCells(instance, sheet, target.originOf(instance), range, (row, column) =>
        inputAt(workbook, sheet, row, column)
      );
      return undefined;
    },
    // A paste goes to the model over the whole selection (the block holds only its rows
    // near the view), as one edit; what was copied in the grid brings the copied formulas,
    // their relative references moved to where each lands, as Excel pastes formulas. The
    // grid then shows the model (jspreadsheet's own paste is not made).
    onbeforepaste: (instance, pasted, x, y) => {
      const sheet = target.sheetOf(instance);
      const origin = target.originOf(instance);
      const { cells, block } = pasteOverSelection(
        copied,
        pasted,
        { row: origin.row + Number(y), column: origin.column + Number(x) },
        selectionBlock(target.selectionOf(sheet))
      );
      history.type(sheet, cells);
      const selected = selectionBlock(target.selectionOf(sheet));
      if (blockAddress(selected) !== blockAddress(block)) {
        target.select(sheet, {
          anchor: { row: block.top, column: block.left },
          end: {
            row: block.top + block.rowCount - 1,
            column: block.left + block.columnCount - 1,
          },
        });
      }
      return false;
    },
  };
}
