/**
 * LARGE, SMALL and MEDIAN, which fast-formula-parser lacks, as Microsoft documents them: over
 * the numbers of their ranges (text, logical values and empty cells in a range are ignored, as
 * in MAX); LARGE and SMALL, "If k ≤ 0 or if k is greater than the number of data points, LARGE
 * returns the #NUM! error value"; MEDIAN, "If there is an even number of numbers in the set, then
 * MEDIAN calculates the average of the two numbers in the middle".
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;

/** The numbers of the arguments, ascending: a range's numbers, a typed argument read as a number. */
function sortedNumbers(params: FunctionArgument[]): number[] {
  const numbers: number[] = [];
  helpers.flattenParams(params, null, true, (item, info) => {
    if (item instanceof FormulaError) throw item;
    if (info.isLiteral) numbers.push(helpers.accept(item, types.NUMBER) as number);
    else if (typeof item === "number") numbers.push(item);
  });
  return numbers.sort((a, b) => a - b);
}

/** The k-th number from one end (`fromTop` for LARGE). */
const kth =
  (fromTop: boolean) =>
  (array: FunctionArgument, k: FunctionArgument): number | FormulaError => {
    const numbers = sortedNumbers([array]);
    const rank = Math.ceil(helpers.accept(k, types.NUMBER) as number);
    if (rank < 1 || rank > numbers.length) return new FormulaError("#NUM!");
    return fromTop ? numbers[numbers.length - rank] : numbers[rank - 1];
  };

/** MEDIAN(number1, …): the middle number; #NUM! when there is none. */
function MEDIAN(...params: FunctionArgument[]): number | FormulaError {
  const numbers = sortedNumbers(params);
  if (numbers.length === 0) return new FormulaError("#NUM!");
  const middle = Math.floor(numbers.length / 2);
  return numbers.length % 2 ? numbers[middle] : (numbers[middle - 1] + numbers[middle]) / 2;
}

/** LARGE(array, k), SMALL(array, k) and MEDIAN. */
export const statisticalFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  LARGE: kth(true),
  SMALL: kth(false),
  MEDIAN,
};
