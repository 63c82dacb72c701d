/** One formula evaluated by fast-formula-parser, with Excel's reason when Excel would refuse it. */
import type FormulaParser from "fast-formula-parser";
import { FormulaError } from "fast-formula-parser";
import { formulaProblem } from "./formulaProblem.js";
import type { Position } from "./formulaState.js";
import { firstLine } from "./formulaValues.js";
import { assertSupported } from "./unsupportedFunctions.js";

/** A formula's result, and why it shows an error when Excel would not take the formula. */
export interface ParsedFormula {
  result: unknown;
  /** Under the formula bar: "There's a problem with this formula: …", an unknown function. */
  problem?: string;
}

/**
 * Evaluates `parsed` (the formula with its spill references resolved) at `position`: the parser
 * throws for what Excel would not take, an unknown function (#NAME?) or a syntax error (#VALUE!);
 * an error of a formula with a broken spill reference is #REF!, as in Excel.
 *
 * ## Example
 * ```ts
 * parseFormula(parser, "=SUM(H1:H6)", "=SUM(H1#)", { sheet: "Sheet1", row: 0, column: 9 });
 * ```
 *
 * @param parser The page's parser.
 * @param parsed The text to evaluate.
 * @param written The formula as written (its problems are told in its own terms).
 * @param position Where the formula is.
 * @param broken Its spill references whose anchor does not spill (replaced by `#REF!`).
 * @return The result, and the problem when there is one.
 */
export function parseFormula(
  parser: FormulaParser,
  parsed: string,
  written: string,
  position: Position,
  broken: readonly string[] = []
): ParsedFormula {
  const brokenReference = {
    result: new FormulaError("#REF!"),
    problem: `${broken[0]} refers to a cell whose formula does not spill (none there, or #SPILL!).`,
  };
  try {
    assertSupported(written);
    const at = { sheet: position.sheet, row: position.row + 1, col: position.column + 1 };
    const result = parser.parse(parsed.replace(/^=/, ""), at, true);
    // A function given #REF! for a range says #VALUE! (ROWS): the reference is what failed.
    return broken.length > 0 && result instanceof FormulaError ? brokenReference : { result };
  } catch (error) {
    if (broken.length > 0) return brokenReference;
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /not implemented/i.test(message);
    return {
      result: new FormulaError(unknown ? "#NAME?" : "#VALUE!"),
      problem: unknown
        ? `A function of this formula is not known here: ${firstLine(message)}`
        : `There's a problem with this formula: ${formulaProblem(written, message)}`,
    };
  }
}
