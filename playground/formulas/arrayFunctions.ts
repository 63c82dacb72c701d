/**
 * Excel's dynamic-array functions a newcomer reaches for, whose results spill as SPELL.BULK's
 * do (`writeSpill.ts`): UNIQUE, FILTER, SORT and SEQUENCE. fast-formula-parser has none of them.
 *
 * Microsoft: UNIQUE "returns a list of unique values in a list or range", by rows unless by_col
 * is TRUE, exactly_once TRUE keeping the rows that occur once; FILTER "filters a range of data
 * based on criteria you define", include being "a Boolean array whose height or width is the same
 * as the array", and "If the dataset has the potential of returning an empty value, then use the
 * 3rd argument ([if_empty])", else #CALC!; SORT(array, [sort_index], [sort_order], [by_col]),
 * sort_order 1 ascending (the default) or -1; SEQUENCE(rows, [columns], [start], [step]). Text
 * compares without regard to case in all of them; an empty cell they return shows 0.
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";
import { compareSameKind, compareValues, gridOf } from "./valueOrder.js";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;
/** Excel's error for a calculation with no result (an empty array). */
const CALC = () => new FormulaError("#CALC!");

const given = (argument: FunctionArgument | undefined): argument is FunctionArgument =>
  argument !== undefined && !argument.omitted;
const numberOf = (argument: FunctionArgument | undefined, fallback: number): number =>
  given(argument) ? (helpers.accept(argument, types.NUMBER) as number) : fallback;
const logicalOf = (argument: FunctionArgument | undefined): boolean =>
  given(argument) ? (helpers.accept(argument, types.BOOLEAN) as boolean) : false;

const transpose = (cells: unknown[][]): unknown[][] =>
  (cells[0] ?? []).map((_, c) => cells.map((row) => row[c]));

/** The array argument's cells (an error given in its place is the result). */
function arrayOf(argument: FunctionArgument): unknown[][] {
  if (argument.value instanceof FormulaError) throw argument.value;
  return gridOf(argument.value);
}

/** Whether two rows hold the same values (text case ignored, empty cells equal). */
const sameRow = (a: unknown[], b: unknown[]) =>
  a.every((value, i) => {
    const other = b[i];
    if (value === null || value === undefined) return other === null || other === undefined;
    return compareSameKind(value, other) === 0;
  });

/** UNIQUE(array, [by_col], [exactly_once]). */
function UNIQUE(
  array: FunctionArgument,
  byColumn?: FunctionArgument,
  exactlyOnce?: FunctionArgument
): unknown {
  const columns = logicalOf(byColumn);
  const rows = columns ? transpose(arrayOf(array)) : arrayOf(array);
  const once = logicalOf(exactlyOnce);
  const kept = rows.filter((row, i) => {
    const first = rows.findIndex((other) => sameRow(row, other)) === i;
    if (!once) return first;
    return rows.filter((other) => sameRow(row, other)).length === 1;
  });
  if (kept.length === 0) return CALC();
  return columns ? transpose(kept) : kept;
}

/** Whether FILTER keeps a line: TRUE or a number other than 0; text is #VALUE!, an error itself. */
function keeps(value: unknown): boolean {
  if (value instanceof FormulaError) throw value;
  if (typeof value === "string") throw new FormulaError("#VALUE!");
  return value === true || (typeof value === "number" && value !== 0);
}

/** FILTER(array, include, [if_empty]). */
function FILTER(
  array: FunctionArgument,
  include: FunctionArgument,
  ifEmpty?: FunctionArgument
): unknown {
  const cells = arrayOf(array);
  const tests = arrayOf(include);
  const width = cells[0]?.length ?? 0;
  let kept: unknown[][];
  if (tests.length === cells.length && tests.every((row) => row.length === 1)) {
    kept = cells.filter((_, r) => keeps(tests[r][0]));
  } else if (tests.length === 1 && tests[0].length === width) {
    const columns = tests[0].map(keeps);
    kept = cells.map((row) => row.filter((_, c) => columns[c]));
    if (kept[0]?.length === 0) kept = [];
  } else {
    return new FormulaError("#VALUE!");
  }
  if (kept.length === 0) return given(ifEmpty) ? ifEmpty.value : CALC();
  return kept;
}

/** SORT(array, [sort_index], [sort_order], [by_col]): empty cells last, ties in their order. */
function SORT(
  array: FunctionArgument,
  sortIndex?: FunctionArgument,
  sortOrder?: FunctionArgument,
  byColumn?: FunctionArgument
): unknown {
  const columns = logicalOf(byColumn);
  const rows = columns ? transpose(arrayOf(array)) : arrayOf(array);
  const index = Math.trunc(numberOf(sortIndex, 1));
  const order = Math.trunc(numberOf(sortOrder, 1));
  if (index < 1 || index > (rows[0]?.length ?? 0) || (order !== 1 && order !== -1)) {
    return new FormulaError("#VALUE!");
  }
  const empty = (value: unknown) => value === null || value === undefined;
  const sorted = rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      const x = a.row[index - 1];
      const y = b.row[index - 1];
      if (empty(x) || empty(y)) return Number(empty(x)) - Number(empty(y)) || a.i - b.i;
      return order * compareValues(x, y) || a.i - b.i;
    })
    .map(({ row }) => row);
  return columns ? transpose(sorted) : sorted;
}

/** SEQUENCE(rows, [columns], [start], [step]): numbers by rows; 0 rows or columns is #CALC!. */
function SEQUENCE(
  rows: FunctionArgument,
  columns?: FunctionArgument,
  start?: FunctionArgument,
  step?: FunctionArgument
): unknown {
  const height = Math.trunc(numberOf(rows, 1));
  const width = Math.trunc(numberOf(columns, 1));
  const first = numberOf(start, 1);
  const by = numberOf(step, 1);
  if (height < 0 || width < 0) return new FormulaError("#VALUE!");
  if (height === 0 || width === 0) return CALC();
  if (height * width > 1_048_576) return new FormulaError("#NUM!");
  return Array.from({ length: height }, (_, r) =>
    Array.from({ length: width }, (_, c) => first + (r * width + c) * by)
  );
}

/** The dynamic-array functions the playground adds. */
export const arrayFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  UNIQUE,
  FILTER,
  SORT,
  SEQUENCE,
};
