/**
 * SWITCH and LOOKUP, which fast-formula-parser lacks, to Microsoft's pages. SWITCH(expression,
 * value1, result1, [default or value2, result2], …) "evaluates one value (called the expression)
 * against a list of values, and returns the result corresponding to the first matching value. If
 * there is no match, an optional default value may be returned"; with no match and no default it
 * is #N/A. LOOKUP(lookup_value, lookup_vector, [result_vector]) finds "the largest value in
 * lookup_vector that is less than or equal to lookup_value" ("the values in lookup_vector must be
 * placed in ascending order"), #N/A below the smallest; its array form searches the first row of
 * an array wider than tall, else the first column, and returns the last row's or column's value.
 */
import { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";
import { findIndex, line } from "./lookupFunctions.js";
import { compareSameKind, gridOf } from "./valueOrder.js";

const NOT_FOUND = () => new FormulaError("#N/A");

/** An argument's one value (an array gives its first); an error is the result. */
function single(argument: FunctionArgument): unknown {
  const value = gridOf(argument.value)[0]?.[0];
  if (value instanceof FormulaError) throw value;
  return value ?? 0;
}

/** SWITCH(expression, value1, result1, …, [default]): text compared without regard to case. */
function SWITCH(expression: FunctionArgument, ...cases: FunctionArgument[]): unknown {
  const value = single(expression);
  if (cases.length < 2) return new FormulaError("#VALUE!");
  for (let i = 0; i + 1 < cases.length; i += 2) {
    if (compareSameKind(single(cases[i]), value) === 0) return cases[i + 1].value;
  }
  return cases.length % 2 === 1 ? cases[cases.length - 1].value : NOT_FOUND();
}

/** LOOKUP(lookup_value, lookup_vector, [result_vector]) and LOOKUP(lookup_value, array). */
function LOOKUP(
  lookupValue: FunctionArgument,
  lookupVector: FunctionArgument,
  resultVector?: FunctionArgument
): unknown {
  const lookup = single(lookupValue);
  const cells = gridOf(lookupVector.value);
  let searched: unknown[] | undefined;
  let results: unknown[] | undefined;
  if (resultVector && !resultVector.omitted) {
    searched = line(cells);
    results = line(gridOf(resultVector.value));
  } else {
    const wide = (cells[0]?.length ?? 0) > cells.length;
    searched = wide ? cells[0] : cells.map((row) => row[0]);
    results = wide ? cells[cells.length - 1] : cells.map((row) => row[row.length - 1]);
  }
  if (!searched || !results) return NOT_FOUND();
  const at = findIndex(searched, lookup, "ascending");
  if (at < 0) return NOT_FOUND();
  // A result vector shorter than the one searched reads on past its end, as Excel's does: empty.
  return at < results.length ? (results[at] ?? 0) : 0;
}

/** SWITCH and LOOKUP. */
export const choiceFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  SWITCH,
  LOOKUP,
};
