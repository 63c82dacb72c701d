/**
 * Excel's spilled range operator `#`: `=SUM(H1#)` reads the whole range H1's formula spills
 * ("You can refer to a spill range by adding # after the anchor cell"). fast-formula-parser does
 * not know the operator, so each `A1#` of a formula is replaced, before it is parsed, by the
 * range the anchor covers now (from the model's spill bookkeeping, `MockWorkbook.spillAt`), or by
 * `#REF!` when the cell holds no formula or its spill is blocked.
 */
import { blockAddress, columnIndex } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import type { MockCell, MockWorkbook } from "../excel/mockWorkbook.js";
import type { FormulaState, Position } from "./formulaState.js";

/** A text in quotes (skipped), or a cell reference followed by `#`, on a sheet or not. */
const TOKENS =
  /"(?:[^"]|"")*"|(?<![\w.$])((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?([A-Za-z]{1,3})\$?(\d+)#/g;

/** A formula with its spill references replaced, and the anchors they name. */
export interface ResolvedSpillReferences {
  /** The formula to parse: `=SUM(H1:H6)` for `=SUM(H1#)`. */
  formula: string;
  /** The anchors of its spill references (each formula reading one depends on it). */
  anchors: { sheet: string; block: CellBlock }[];
  /** The spill references whose anchor does not spill (`H1#`), replaced by `#REF!`. */
  broken: string[];
}

/**
 * Replaces each spill reference (`H1#`, `Sheet2!G1#`) of `formula` by the range its anchor
 * spills now, or `#REF!` when the anchor does not spill (no formula there, or `#SPILL!`).
 *
 * ## Example
 * ```ts
 * resolveSpillReferences(workbook, "=ROWS(G1#)", "Sheet2"); // { formula: "=ROWS(G1:G3)", anchors: [G1] }
 * ```
 *
 * @param workbook The model.
 * @param formula The formula as written.
 * @param formulaSheet The formula's sheet (of references that name none).
 * @return The formula to parse and the anchors it reads.
 */
export function resolveSpillReferences(
  workbook: MockWorkbook,
  formula: string,
  formulaSheet: string
): ResolvedSpillReferences {
  const anchors: { sheet: string; block: CellBlock }[] = [];
  const broken: string[] = [];
  if (!formula.includes("#")) return { formula, anchors, broken };
  const resolved = formula.replace(
    TOKENS,
    (token, prefix: string | undefined, letters: string | undefined, row: string | undefined) => {
      if (letters === undefined || row === undefined) return token; // a text in quotes
      const sheet = prefix ? unquote(prefix.slice(0, -1)) : formulaSheet;
      const anchor = {
        top: Number(row) - 1,
        left: columnIndex(letters),
        rowCount: 1,
        columnCount: 1,
      };
      anchors.push({ sheet, block: anchor });
      const spill = spillOf(workbook, sheet, anchor);
      if (spill) return `${prefix ?? ""}${blockAddress(spill)}`;
      broken.push(token);
      return "#REF!";
    }
  );
  return { formula: resolved, anchors, broken };
}

/** The block the formula at `anchor` covers, undefined when there is none or it shows #SPILL!. */
function spillOf(workbook: MockWorkbook, sheet: string, anchor: CellBlock): CellBlock | undefined {
  const address = blockAddress(anchor);
  const cell = workbook.cell(sheet, address);
  if (cell.formula === undefined || cell.value === "#SPILL!") return undefined;
  return workbook.spillAt(sheet, address) ?? anchor;
}

function unquote(sheet: string): string {
  return sheet.startsWith("'") ? sheet.slice(1, -1).split("''").join("'") : sheet;
}

/**
 * The formulas of one recalculation that read a spill with `#`, by anchor: when an anchor's spill
 * changes its size after they were evaluated (both entered at once, the reader first), they are
 * evaluated again with the new range.
 *
 * ## Example
 * ```ts
 * const readers = new SpillReaders();
 * readers.add(cell, state);
 * readers.resized(position, before, state.covered, done); // the readers to evaluate again
 * ```
 */
export class SpillReaders {
  private readonly byAnchor = new Map<string, MockCell[]>();

  /** Notes the anchors an evaluated formula reads with `#`. */
  add(cell: MockCell, state: FormulaState): void {
    for (const { sheet, block } of state.spillAnchors ?? []) {
      const key = anchorKey(sheet, block.top, block.left);
      this.byAnchor.set(key, [...(this.byAnchor.get(key) ?? []), cell]);
    }
  }

  /**
   * The formulas done already that read the spill at `anchor`, when it now covers another block
   * than `before` (undefined: a formula new to the engine).
   */
  resized(
    anchor: Position,
    before: CellBlock | undefined,
    after: CellBlock,
    done: ReadonlySet<MockCell>
  ): MockCell[] {
    const same =
      before !== undefined &&
      before.rowCount === after.rowCount &&
      before.columnCount === after.columnCount;
    if (same) return [];
    const readers = this.byAnchor.get(anchorKey(anchor.sheet, anchor.row, anchor.column)) ?? [];
    return readers.filter((cell) => done.has(cell));
  }
}

function anchorKey(sheet: string, row: number, column: number): string {
  return `${sheet}\u0000${row}\u0000${column}`;
}
