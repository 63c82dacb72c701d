/** The spill ranges the formulas gave up, and the blocked formulas to check again for them. */
import type { CellBlock } from "../excel/a1.js";
import type { MockCell } from "../excel/mockWorkbook.js";
import { overlaps } from "./cellBlocks.js";
import type { FormulaState, Position } from "./formulaState.js";

/**
 * The spill ranges given up since the formulas they blocked were last checked.
 *
 * A formula gives up (some of) its spill range when it is cleared, edited, deleted, its result
 * gets smaller, or it is blocked now. The formulas that range blocked are checked again, and
 * spill if nothing else is in their way: Microsoft's "How to correct a #SPILL! error" ("Spill
 * range isn't blank … Once the obstruction is cleared, the formula will spill as intended").
 *
 * Two blocked formulas may want the same freed cells; Excel documents no rule for which spills
 * (it follows its calculation chain). Here the one entered first spills, and the other stays
 * #SPILL! (its range is not blank): the same edits always give the same sheet.
 *
 * @example
 * ```ts
 * const released = new ReleasedSpills(states);
 * released.release("Sheet1", state.covered);
 * for (const cell of released.takeBlocked(positions)) recheck(cell);
 * ```
 */
export class ReleasedSpills {
  private released: { sheet: string; block: CellBlock }[] = [];

  /** @param states The engine's formulas (read when the blocked ones are taken). */
  constructor(private readonly states: ReadonlyMap<MockCell, FormulaState>) {}

  /**
   * A formula gave up `block` (a spill range; a single cell is no spill and is not kept). Every
   * release of a spill range comes here.
   */
  release(sheet: string, block: CellBlock): void {
    if (block.rowCount * block.columnCount > 1) this.released.push({ sheet, block });
  }

  /**
   * The blocked formulas whose wanted ranges cross a released range, in the order entered; the
   * released ranges are forgotten.
   *
   * @param positions Where each cell of the model is.
   */
  takeBlocked(positions: ReadonlyMap<MockCell, Position>): MockCell[] {
    if (this.released.length === 0) return [];
    const released = this.released;
    this.released = [];
    const blocked: MockCell[] = [];
    for (const [cell, state] of this.states) {
      const position = positions.get(cell);
      if (!state.wanted || !position || cell.formula === undefined) continue;
      const wanted = { sheet: position.sheet, block: state.wanted };
      if (released.some(({ sheet, block }) => overlaps(wanted, sheet, block))) blocked.push(cell);
    }
    return this.inOrderEntered(blocked);
  }

  /** Forgets the released ranges (the end of a recalculation). */
  clear(): void {
    this.released = [];
  }

  /**
   * `cells` sorted by when their formulas were entered (see `FormulaState.entered`); a formula
   * not evaluated yet is last.
   */
  inOrderEntered(cells: Iterable<MockCell>): MockCell[] {
    const entered = (cell: MockCell) => this.states.get(cell)?.entered ?? Number.MAX_SAFE_INTEGER;
    return [...cells].sort((a, b) => entered(a) - entered(b));
  }
}
