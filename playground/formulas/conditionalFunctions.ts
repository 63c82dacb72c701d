/**
 * COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF, AVERAGEIFS, MAXIFS and MINIFS with Excel's
 * criteria ({@link criterion}), and COUNTBLANK. fast-formula-parser lacked the *IFS ones and
 * COUNTBLANK, and matched criteria case by case (see `criteria.ts`).
 *
 * Microsoft: SUMIFS, "Each additional range must have the same number of rows and columns as the
 * sum_range argument" (else #VALUE!); SUMIF, "Blank and text values are ignored" in what it adds,
 * and a sum_range of another size is read from its top-left cell in the shape of range ("The
 * sum_range argument does not have to be the same size and shape as the range argument");
 * AVERAGEIF, "If no cells in the range meet the criteria, AVERAGEIF returns the #DIV/0! error
 * value", and cells of average_range holding TRUE or FALSE or nothing are ignored.
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument, ParserContext } from "fast-formula-parser";
import { criterion } from "./criteria.js";
import { gridOf } from "./valueOrder.js";

const helpers = FormulaParser.FormulaHelpers;

/** A range argument's cells (an error given in its place is the result). */
function cellsOf(argument: FunctionArgument | undefined): unknown[][] {
  if (argument === undefined || argument.omitted) throw new FormulaError("#VALUE!");
  if (argument.value instanceof FormulaError) throw argument.value;
  return gridOf(argument.value);
}

/** The criterion of an argument (a range given as criteria: its first cell, as Excel reads it). */
function criterionOf(argument: FunctionArgument | undefined): (value: unknown) => boolean {
  if (argument === undefined) throw new FormulaError("#N/A");
  return criterion(gridOf(argument.value)[0][0]);
}

const sameShape = (a: unknown[][], b: unknown[][]) =>
  a.length === b.length && (a[0]?.length ?? 0) === (b[0]?.length ?? 0);

/**
 * The values of `target`'s cells whose cells in every criteria range meet its criterion; pairs
 * are `criteria_range, criteria, …`, each range of `target`'s size (else #VALUE!).
 */
function* meeting(target: unknown[][], pairs: FunctionArgument[]): Generator<unknown> {
  if (pairs.length === 0 || pairs.length % 2 !== 0) throw new FormulaError("#N/A");
  const tests: { cells: unknown[][]; meets: (value: unknown) => boolean }[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const cells = cellsOf(pairs[i]);
    if (!sameShape(cells, target)) throw new FormulaError("#VALUE!");
    tests.push({ cells, meets: criterionOf(pairs[i + 1]) });
  }
  for (let r = 0; r < target.length; r++) {
    for (let c = 0; c < target[r].length; c++) {
      if (tests.every(({ cells, meets }) => meets(cells[r][c]))) yield target[r][c];
    }
  }
}

/** COUNTIFS(criteria_range1, criteria1, …): the cells meeting every criterion. */
function COUNTIFS(...pairs: FunctionArgument[]): number {
  let count = 0;
  for (const _ of meeting(cellsOf(pairs[0]), pairs)) count++;
  return count;
}

/** SUMIFS(sum_range, criteria_range1, criteria1, …): the numbers where every criterion is met. */
function SUMIFS(sumRange: FunctionArgument, ...pairs: FunctionArgument[]): number {
  let sum = 0;
  for (const value of meeting(cellsOf(sumRange), pairs)) {
    if (value instanceof FormulaError) throw value;
    if (typeof value === "number") sum += value;
  }
  return sum;
}

/** AVERAGEIFS(average_range, criteria_range1, criteria1, …): #DIV/0! when no number is met. */
function AVERAGEIFS(averageRange: FunctionArgument, ...pairs: FunctionArgument[]): number {
  let sum = 0;
  let count = 0;
  for (const value of meeting(cellsOf(averageRange), pairs)) {
    if (value instanceof FormulaError) throw value;
    if (typeof value === "number") {
      sum += value;
      count++;
    }
  }
  if (count === 0) throw new FormulaError("#DIV/0!");
  return sum / count;
}

/**
 * MAXIFS and MINIFS(target_range, criteria_range1, criteria1, …): the largest or smallest number
 * where every criterion is met; "If no cells meet the criteria, MAXIFS returns 0".
 */
const extremeIfs =
  (pick: (...values: number[]) => number) =>
  (range: FunctionArgument, ...pairs: FunctionArgument[]): number => {
    const numbers: number[] = [];
    for (const value of meeting(cellsOf(range), pairs)) {
      if (value instanceof FormulaError) throw value;
      if (typeof value === "number") numbers.push(value);
    }
    return numbers.length === 0 ? 0 : pick(...numbers);
  };

/**
 * COUNTBLANK(range): "Cells with formulas that return "" (empty text) are also counted. Cells
 * with zero values are not counted."
 */
function COUNTBLANK(range: FunctionArgument): number {
  return cellsOf(range)
    .flat()
    .filter((value) => value === null || value === undefined || value === "").length;
}

/** COUNTIF(range, criteria): COUNTIFS with one pair. */
function COUNTIF(range: FunctionArgument, criteria: FunctionArgument): number {
  return COUNTIFS(range, criteria);
}

/**
 * The parser hands SUMIF and AVERAGEIF their references unread (they are its "context"
 * functions): range, criteria and sum_range read as Excel does, sum_range in range's shape.
 */
function readIf(
  context: ParserContext,
  range: unknown,
  criteria: unknown,
  valuesRange: unknown
): FunctionArgument[] {
  if (range === null || range === undefined || criteria === undefined) {
    throw new FormulaError("#N/A");
  }
  const [cells, values] = helpers.retrieveRanges(context, range, valuesRange ?? null);
  const given = helpers.retrieveArg(context, criteria);
  const argument = (value: unknown): FunctionArgument => ({ value, isArray: true });
  return [argument(values), argument(cells), given];
}

/** SUMIF(range, criteria, [sum_range]): the numbers of sum_range (or range) meeting criteria. */
function SUMIF(context: ParserContext, ...args: unknown[]): number {
  const [values, cells, given] = readIf(context, args[0], args[1], args[2]);
  return SUMIFS(values, cells, given);
}

/** AVERAGEIF(range, criteria, [average_range]): their average, #DIV/0! when none. */
function AVERAGEIF(context: ParserContext, ...args: unknown[]): number {
  const [values, cells, given] = readIf(context, args[0], args[1], args[2]);
  return AVERAGEIFS(values, cells, given);
}

/** The conditional functions that take their arguments read. */
export const conditionalFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  COUNTIF,
  COUNTIFS,
  SUMIFS,
  AVERAGEIFS,
  MAXIFS: extremeIfs(Math.max),
  MINIFS: extremeIfs(Math.min),
  COUNTBLANK,
};

/** SUMIF and AVERAGEIF, which the parser calls with itself first and their references unread. */
export const conditionalFunctionsNeedingContext: Record<
  string,
  (context: ParserContext, ...args: unknown[]) => unknown
> = { SUMIF, AVERAGEIF };
