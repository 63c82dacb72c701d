/**
 * MATCH, VLOOKUP, HLOOKUP, XLOOKUP, XMATCH and CHOOSE as Microsoft documents them.
 * fast-formula-parser lacked MATCH, XLOOKUP, XMATCH and CHOOSE, and its VLOOKUP and HLOOKUP matched text case by case (`=VLOOKUP("banana",
 * …,FALSE)` did not find "Banana") and found a wildcard pattern anywhere in a cell.
 *
 * Microsoft, MATCH: "MATCH does not distinguish between uppercase and lowercase letters when
 * matching text values"; "If MATCH is unsuccessful in finding a match, it returns the #N/A error
 * value"; "If match_type is 0 and lookup_value is a text string, you can use the wildcard
 * characters"; match_type 1 (the default) "finds the largest value that is less than or equal to
 * lookup_value" in ascending order, -1 "the smallest value that is greater than or equal to"
 * in descending order. VLOOKUP: range_lookup TRUE (the default) is that approximate match, FALSE
 * an exact one; col_index_num below 1 is #VALUE!, past the table #REF!. XLOOKUP: "If a valid match
 * is not found, then return the [if_not_found] text you supply", else #N/A; match_mode 0 exact
 * (the default), -1 "exact match. If none found, return the next smaller item", 1 "… the next
 * larger item", 2 "a wildcard match where *, ?, and ~ have special meaning"; search_mode 1 from
 * the first item, -1 from the last (2 and -2, binary searches of sorted data, find what 1 finds).
 */
import { FormulaError } from "fast-formula-parser";
import type { FunctionArgument, ParserContext } from "fast-formula-parser";
import FormulaParser from "fast-formula-parser";
import { compareSameKind, gridOf } from "./valueOrder.js";
import { hasWildcards, wildcardPattern } from "./wildcards.js";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;
const NOT_FOUND = () => new FormulaError("#N/A");

/** How a lookup matches: exact (with or without wildcards), or the next smaller or larger. */
type MatchMode = "exact" | "wildcard" | "smaller" | "larger" | "ascending" | "descending";

const given = (argument: FunctionArgument | undefined): argument is FunctionArgument =>
  argument !== undefined && !argument.omitted;

/** The value looked up: an error is the result; an array gives its first value. */
function lookupValueOf(argument: FunctionArgument): unknown {
  const value = gridOf(argument.value)[0][0];
  if (value instanceof FormulaError) throw value;
  return value;
}

/** A whole number argument, `fallback` when omitted. */
function wholeNumber(argument: FunctionArgument | undefined, fallback: number): number {
  return given(argument) ? Math.trunc(helpers.accept(argument, types.NUMBER) as number) : fallback;
}

/**
 * The index in `values` of the item `lookup` matches, or -1.
 *
 * "ascending" is MATCH's 1 over ascending data (the last item not above `lookup` before the first
 * above it), "descending" its -1; "smaller" and "larger" are XLOOKUP's -1 and 1 (the exact item,
 * else the nearest on that side, in any order).
 */
export function findIndex(values: unknown[], lookup: unknown, mode: MatchMode): number {
  if (mode === "exact" || mode === "wildcard") {
    const pattern =
      mode === "wildcard" &&
      typeof lookup === "string" &&
      (hasWildcards(lookup) || lookup.includes("~"))
        ? wildcardPattern(lookup, true)
        : undefined;
    return values.findIndex((value) =>
      pattern
        ? typeof value === "string" && pattern.test(value)
        : compareSameKind(value, lookup) === 0
    );
  }
  let best = -1;
  for (let i = 0; i < values.length; i++) {
    const order = compareSameKind(values[i], lookup);
    if (order === undefined) continue;
    if (mode === "ascending" || mode === "descending") {
      if (mode === "ascending" ? order > 0 : order < 0) break;
      best = i;
    } else if (order === 0) {
      return i;
    } else if (mode === "smaller" ? order < 0 : order > 0) {
      const than = best < 0 ? undefined : compareSameKind(values[i], values[best]);
      if (best < 0 || (mode === "smaller" ? (than as number) > 0 : (than as number) < 0)) best = i;
    }
  }
  return best;
}

/**
 * A row's or a column's values, `undefined` when the block is neither.
 *
 * ## Example
 * ```ts
 * line([[1], [2]]); // [1, 2]
 * line([[1, 2], [3, 4]]); // undefined
 * ```
 */
export function line(cells: unknown[][]): unknown[] | undefined {
  if (cells.length === 1) return cells[0];
  if (cells.every((row) => row.length === 1)) return cells.map((row) => row[0]);
  return undefined;
}

/** MATCH(lookup_value, lookup_array, [match_type]): the position found (1 for the first). */
function MATCH(
  lookupValue: FunctionArgument,
  lookupArray: FunctionArgument,
  matchType?: FunctionArgument
): number | FormulaError {
  const lookup = lookupValueOf(lookupValue);
  const values = line(gridOf(lookupArray.value));
  if (!values) return NOT_FOUND();
  const type = wholeNumber(matchType, 1);
  const mode = type === 0 ? "wildcard" : type > 0 ? "ascending" : "descending";
  const at = findIndex(values, lookup, mode);
  return at < 0 ? NOT_FOUND() : at + 1;
}

/** VLOOKUP and HLOOKUP over a table whose lines are its rows (VLOOKUP) or columns (HLOOKUP). */
function tableLookup(
  lookupValue: FunctionArgument,
  lines: unknown[][],
  indexNumber: FunctionArgument,
  rangeLookup: FunctionArgument | undefined
): unknown {
  const lookup = lookupValueOf(lookupValue);
  const index = wholeNumber(indexNumber, 1);
  if (index < 1) return new FormulaError("#VALUE!");
  if (index > (lines[0]?.length ?? 0)) return new FormulaError("#REF!");
  const approximate = given(rangeLookup) ? helpers.accept(rangeLookup, types.BOOLEAN) : true;
  const firsts = lines.map((entry) => entry[0]);
  const at = findIndex(firsts, lookup, approximate ? "ascending" : "wildcard");
  return at < 0 ? NOT_FOUND() : (lines[at][index - 1] ?? 0);
}

/** VLOOKUP(lookup_value, table_array, col_index_num, [range_lookup]). */
function VLOOKUP(
  lookupValue: FunctionArgument,
  table: FunctionArgument,
  column: FunctionArgument,
  rangeLookup?: FunctionArgument
): unknown {
  return tableLookup(lookupValue, gridOf(table.value), column, rangeLookup);
}

/** HLOOKUP(lookup_value, table_array, row_index_num, [range_lookup]). */
function HLOOKUP(
  lookupValue: FunctionArgument,
  table: FunctionArgument,
  row: FunctionArgument,
  rangeLookup?: FunctionArgument
): unknown {
  const cells = gridOf(table.value);
  const columns = (cells[0] ?? []).map((_, c) => cells.map((entry) => entry[c]));
  return tableLookup(lookupValue, columns, row, rangeLookup);
}

const XLOOKUP_MODES: Record<number, MatchMode> = {
  0: "exact",
  [-1]: "smaller",
  1: "larger",
  2: "wildcard",
};

/**
 * The index XLOOKUP and XMATCH find by their match_mode and search_mode (-1 from the last item),
 * -1 for none, #VALUE! for a mode they do not know.
 */
function xSearch(
  values: unknown[],
  lookup: unknown,
  matchMode: FunctionArgument | undefined,
  searchMode: FunctionArgument | undefined
): number | FormulaError {
  const mode = XLOOKUP_MODES[wholeNumber(matchMode, 0)];
  const search = wholeNumber(searchMode, 1);
  if (!mode || ![1, -1, 2, -2].includes(search)) return new FormulaError("#VALUE!");
  const fromLast = search === -1;
  const found = findIndex(fromLast ? [...values].reverse() : values, lookup, mode);
  return found < 0 || !fromLast ? found : values.length - 1 - found;
}

/**
 * XLOOKUP(lookup_value, lookup_array, return_array, [if_not_found], [match_mode],
 * [search_mode]): the row (or column) of return_array where lookup_array matches; a row of
 * several cells spills.
 */
function XLOOKUP(
  lookupValue: FunctionArgument,
  lookupArray: FunctionArgument,
  returnArray: FunctionArgument,
  ifNotFound?: FunctionArgument,
  matchMode?: FunctionArgument,
  searchMode?: FunctionArgument
): unknown {
  const lookup = lookupValueOf(lookupValue);
  const keys = gridOf(lookupArray.value);
  const results = gridOf(returnArray.value);
  const values = line(keys);
  if (!values) return new FormulaError("#VALUE!");
  const byRows = keys.length > 1 || (keys.length === 1 && keys[0].length === 1);
  if (byRows ? results.length !== values.length : results[0]?.length !== values.length) {
    return new FormulaError("#VALUE!");
  }
  const at = xSearch(values, lookup, matchMode, searchMode);
  if (at instanceof FormulaError) return at;
  if (at < 0) return given(ifNotFound) ? ifNotFound.value : NOT_FOUND();
  const picked = byRows ? [results[at]] : results.map((row) => [row[at]]);
  return picked.length === 1 && picked[0].length === 1 ? (picked[0][0] ?? 0) : picked;
}

/**
 * XMATCH(lookup_value, lookup_array, [match_mode], [search_mode]): the position XLOOKUP would
 * take ("XMATCH … returns the relative position of an item"), match_mode 0 (exact) by default.
 */
function XMATCH(
  lookupValue: FunctionArgument,
  lookupArray: FunctionArgument,
  matchMode?: FunctionArgument,
  searchMode?: FunctionArgument
): number | FormulaError {
  const lookup = lookupValueOf(lookupValue);
  const values = line(gridOf(lookupArray.value));
  if (!values) return new FormulaError("#VALUE!");
  const at = xSearch(values, lookup, matchMode, searchMode);
  if (at instanceof FormulaError) return at;
  return at < 0 ? NOT_FOUND() : at + 1;
}

/**
 * CHOOSE(index_num, value1, …): the value at index_num; "If index_num is less than 1 or greater
 * than the number of the last value in the list, CHOOSE returns the #VALUE! error value." The
 * parser calls CHOOSE with itself first, its arguments read.
 */
function CHOOSE(_parser: ParserContext, ...args: unknown[]): unknown {
  const [index, ...values] = args as FunctionArgument[];
  const at = wholeNumber(index, 0);
  if (at < 1 || at > values.length) return new FormulaError("#VALUE!");
  return values[at - 1].value ?? 0;
}

/** The lookup functions the playground adds to (or puts in place of) the parser's. */
export const lookupFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  MATCH,
  VLOOKUP,
  HLOOKUP,
  XLOOKUP,
  XMATCH,
};

/** CHOOSE, which the parser calls with itself first (its arguments read). */
export const lookupFunctionsNeedingContext: Record<
  string,
  (context: ParserContext, ...args: unknown[]) => unknown
> = { CHOOSE };
