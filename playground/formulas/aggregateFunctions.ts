/**
 * The functions over the numbers of their arguments: SUM, AVERAGE, MAX, MIN, LARGE, SMALL,
 * MEDIAN and SUMPRODUCT, as Microsoft documents them. "If an argument is an array or reference,
 * only numbers in that array or reference are used. Empty cells, logical values, or text in the
 * array or reference are ignored" (MAX; AVERAGE and the others alike); numbers, logical values
 * and text of numbers typed as arguments count, other text typed is #VALUE!; an error anywhere
 * is the result, as in Excel (the add-in answers #N/A for rows still running so that a SUM over
 * them never shows as final).
 *
 * fast-formula-parser's SUM and AVERAGE skipped an error in a range (`=SUM(C2:C37)` over a
 * SPELL.BULK still running summed the rows done), AVERAGE of no numbers was #VALUE! (Excel's is
 * #DIV/0!), SUMPRODUCT joined an error into text, and LARGE, SMALL and MEDIAN were missing.
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";
import { gridOf } from "./valueOrder.js";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;

/**
 * The numbers of the arguments, in their order: a range's numbers, a typed argument read as a
 * number; throws the first error.
 */
function numbersOf(params: FunctionArgument[]): number[] {
  const numbers: number[] = [];
  helpers.flattenParams(params, null, true, (item, info) => {
    if (item instanceof FormulaError) throw item;
    // A typed argument arrives as it was written ("2", TRUE): read as a number, as Excel does.
    if (info.isLiteral) numbers.push(helpers.acceptNumber(item));
    else if (typeof item === "number") numbers.push(item);
  });
  return numbers;
}

const ascending = (params: FunctionArgument[]) => numbersOf(params).sort((a, b) => a - b);

/** SUM(number1, …). */
function SUM(...params: FunctionArgument[]): number {
  return numbersOf(params).reduce((sum, number) => sum + number, 0);
}

/** AVERAGE(number1, …): #DIV/0! when there is no number. */
function AVERAGE(...params: FunctionArgument[]): number | FormulaError {
  const numbers = numbersOf(params);
  if (numbers.length === 0) return new FormulaError("#DIV/0!");
  return numbers.reduce((sum, number) => sum + number, 0) / numbers.length;
}

/** MAX(number1, …): the largest; "If the arguments contain no numbers, MAX returns 0." */
function MAX(...params: FunctionArgument[]): number {
  const numbers = numbersOf(params);
  return numbers.length === 0 ? 0 : Math.max(...numbers);
}

/** MIN(number1, …): the smallest; 0 when the arguments contain no numbers. */
function MIN(...params: FunctionArgument[]): number {
  const numbers = numbersOf(params);
  return numbers.length === 0 ? 0 : Math.min(...numbers);
}

/**
 * LARGE and SMALL(array, k): the k-th number from the top or the bottom; "If k ≤ 0 or if k is
 * greater than the number of data points, LARGE returns the #NUM! error value."
 */
const kth =
  (fromTop: boolean) =>
  (array: FunctionArgument, k: FunctionArgument): number | FormulaError => {
    const numbers = ascending([array]);
    const rank = Math.ceil(helpers.accept(k, types.NUMBER) as number);
    if (rank < 1 || rank > numbers.length) return new FormulaError("#NUM!");
    return fromTop ? numbers[numbers.length - rank] : numbers[rank - 1];
  };

/**
 * MEDIAN(number1, …): "If there is an even number of numbers in the set, then MEDIAN calculates
 * the average of the two numbers in the middle"; #NUM! when there is none.
 */
function MEDIAN(...params: FunctionArgument[]): number | FormulaError {
  const numbers = ascending(params);
  if (numbers.length === 0) return new FormulaError("#NUM!");
  const middle = Math.floor(numbers.length / 2);
  return numbers.length % 2 ? numbers[middle] : (numbers[middle - 1] + numbers[middle]) / 2;
}

/**
 * SUMPRODUCT(array1, …): "The array arguments must have the same dimensions. If they do not,
 * SUMPRODUCT returns the #VALUE! error value"; "SUMPRODUCT treats non-numeric array entries as
 * if they were zeros"; an error in an array is the result.
 */
function SUMPRODUCT(...arrays: FunctionArgument[]): number | FormulaError {
  const blocks = arrays.map((array) => {
    if (array.value instanceof FormulaError) throw array.value;
    return gridOf(array.value);
  });
  const [first] = blocks;
  if (!first) return new FormulaError("#VALUE!");
  const width = first[0]?.length ?? 0;
  if (blocks.some((block) => block.length !== first.length || block[0]?.length !== width)) {
    return new FormulaError("#VALUE!");
  }
  let sum = 0;
  for (let r = 0; r < first.length; r++) {
    for (let c = 0; c < width; c++) {
      let product = 1;
      for (const block of blocks) {
        const value = block[r][c];
        if (value instanceof FormulaError) throw value;
        product *= typeof value === "number" ? value : 0;
      }
      sum += product;
    }
  }
  return sum;
}

/** SUM, AVERAGE, MAX, MIN, LARGE, SMALL, MEDIAN and SUMPRODUCT. */
export const aggregateFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  SUM,
  AVERAGE,
  MAX,
  MIN,
  LARGE: kth(true),
  SMALL: kth(false),
  MEDIAN,
  SUMPRODUCT,
};
