/**
 * Why cells of the playground show an error ("Sheet1!B2" → a custom function's message), as
 * Excel shows it when the pointer rests on the cell's error sign.
 */
import { columnName } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import { isErrorLike } from "./formulaValues.js";

/**
 * The messages of the formula engine's cells.
 *
 * ## Example
 * ```ts
 * const messages = new CellMessages();
 * messages.set("Sheet1", 1, 1, "The spell was not found.");
 * messages.at("Sheet1", "B2"); // "The spell was not found."
 * ```
 */
export class CellMessages {
  private readonly messages = new Map<string, string>();

  /** The message of a cell (`address` as `B2`), if any. */
  at(sheet: string, address: string): string | undefined {
    return this.messages.get(`${sheet}!${address}`);
  }

  /** Sets (or, with no message, forgets) the message of a cell (zero-based row and column). */
  set(sheet: string, row: number, column: number, message: string | undefined): void {
    const key = `${sheet}!${columnName(column)}${row + 1}`;
    if (message) this.messages.set(key, message);
    else this.messages.delete(key);
  }

  /** Forgets every message of a sheet (its cells moved: they are set again as they evaluate). */
  forgetSheet(sheet: string): void {
    for (const key of this.messages.keys()) {
      if (key.startsWith(`${sheet}!`)) this.messages.delete(key);
    }
  }

  /**
   * The messages of a spill's error cells ("Still running (3 of 36 rows finished).") under their
   * own addresses, as Excel shows each cell's own; those of cells the spill left are forgotten.
   *
   * @param sheet The spill's sheet.
   * @param before The block the formula covered before.
   * @param covered The block it covers now.
   * @param result The spilled array as the function gave it.
   */
  keepSpillMessages(sheet: string, before: CellBlock, covered: CellBlock, result: unknown): void {
    for (let r = 0; r < before.rowCount; r++) {
      for (let c = 0; c < before.columnCount; c++) {
        if (r > 0 || c > 0) this.set(sheet, before.top + r, before.left + c, undefined);
      }
    }
    if (!Array.isArray(result) || covered.rowCount * covered.columnCount === 1) return;
    (result as unknown[][]).forEach((line, r) => {
      if (!Array.isArray(line)) return;
      line.forEach((item, c) => {
        const message = isErrorLike(item) ? (item as { message?: unknown }).message : undefined;
        if ((r > 0 || c > 0) && typeof message === "string" && message !== "") {
          this.set(sheet, covered.top + r, covered.left + c, message);
        }
      });
    });
  }
}
