/**
 * Excel functions that fast-formula-parser lacks (or gets wrong) and that a newcomer reaches for
 * first, written to Microsoft's documented rules. Each reads its arguments with the parser's
 * own helper, so an empty cell is "" or 0 as {@link useExcelValueRules} makes it.
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument, ParserContext } from "fast-formula-parser";
import { aggregateFunctions } from "./aggregateFunctions.js";
import { arrayFunctions } from "./arrayFunctions.js";
import { choiceFunctions } from "./choiceFunctions.js";
import {
  conditionalFunctions,
  conditionalFunctionsNeedingContext,
} from "./conditionalFunctions.js";
import { dateFunctions } from "./dateFunctions.js";
import { lookupFunctions, lookupFunctionsNeedingContext } from "./lookupFunctions.js";
import { roundingFunctions } from "./rounding.js";
import { TEXT } from "./textFormat.js";
import { textSplitFunctions } from "./textSplitFunctions.js";
import { wildcardPattern } from "./wildcards.js";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;
/** Excel's longest text in a cell (TEXTJOIN: "If the resulting string exceeds 32767 characters … #VALUE!"). */
const MAX_TEXT = 32767;

const text = (argument: unknown): string => helpers.accept(argument, types.STRING) as string;
const number = (argument: unknown): number => helpers.accept(argument, types.NUMBER) as number;
const given = (argument: FunctionArgument | undefined): argument is FunctionArgument =>
  argument !== undefined && !argument.omitted;

/** UPPER(text): "Converts text to uppercase." */
function UPPER(argument: FunctionArgument): string {
  return text(argument).toUpperCase();
}

/**
 * TRIM(text): "Removes all spaces from text except for single spaces between words" (the space
 * character, 32; the parser's own kept runs of spaces inside the text).
 */
function TRIM(argument: FunctionArgument): string {
  return text(argument).replace(/ +/g, " ").replace(/^ | $/g, "");
}

/**
 * MID(text, start_num, num_chars): "If start_num is greater than the length of text, MID returns
 * "" (empty text)"; start_num less than 1 or num_chars negative is #VALUE! (the parser's own
 * refused num_chars 0, which Excel answers with "").
 */
function MID(
  within: FunctionArgument,
  start: FunctionArgument,
  count: FunctionArgument
): string | FormulaError {
  const source = text(within);
  const from = Math.trunc(number(start));
  const length = Math.trunc(number(count));
  if (from < 1 || length < 0) return new FormulaError("#VALUE!");
  return source.slice(from - 1, from - 1 + length);
}

/**
 * SUBSTITUTE(text, old_text, new_text, [instance_num]): "If you specify instance_num, only that
 * instance of old_text is replaced. Otherwise, every occurrence of old_text in text is changed."
 */
function SUBSTITUTE(
  within: FunctionArgument,
  old: FunctionArgument,
  replacement: FunctionArgument,
  instance?: FunctionArgument
): string | FormulaError {
  const source = text(within);
  const find = text(old);
  const put = text(replacement);
  if (!given(instance)) return find === "" ? source : source.split(find).join(put);
  const wanted = Math.trunc(number(instance));
  if (wanted < 1) return new FormulaError("#VALUE!");
  if (find === "") return source;
  let at = -1;
  for (let seen = 0; seen < wanted; seen++) {
    at = source.indexOf(find, at + 1);
    if (at < 0) return source;
  }
  return source.slice(0, at) + put + source.slice(at + find.length);
}

/**
 * TEXTJOIN(delimiter, ignore_empty, text1, …): "If TRUE, ignores empty cells"; ranges are joined
 * cell by cell; a result over 32767 characters is #VALUE!.
 */
function TEXTJOIN(
  delimiter: FunctionArgument,
  ignoreEmpty: FunctionArgument,
  ...texts: FunctionArgument[]
): string | FormulaError {
  const between = text(delimiter);
  const skipEmpty = helpers.accept(ignoreEmpty, types.BOOLEAN) as boolean;
  const parts: string[] = [];
  helpers.flattenParams(texts, types.STRING, false, (item) => {
    if (item instanceof FormulaError) throw item;
    const part = text(item);
    if (!(skipEmpty && part === "")) parts.push(part);
  });
  const joined = parts.join(between);
  return joined.length > MAX_TEXT ? new FormulaError("#VALUE!") : joined;
}

/**
 * VALUE(text): "Converts a text string that represents a number to a number"; text that is not
 * a number is #VALUE!. An empty cell is 0, as it is wherever Excel wants a number.
 */
function VALUE(argument: FunctionArgument): number | FormulaError {
  const value = argument.value;
  if (value === null || value === undefined) return 0;
  if (typeof value === "number") return value;
  if (typeof value !== "string") return new FormulaError("#VALUE!");
  const written = value.trim().replace(/,(?=\d{3}(\D|$))/g, "");
  const percent = written.endsWith("%");
  const digits = percent ? written.slice(0, -1) : written;
  const negative = /^\(.*\)$/.test(digits);
  const plain = negative ? digits.slice(1, -1) : digits;
  const parsed = /^[+-]?\$?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain)
    ? Number(plain.replace("$", ""))
    : Number.NaN;
  if (Number.isNaN(parsed)) return new FormulaError("#VALUE!");
  return (negative ? -parsed : parsed) / (percent ? 100 : 1);
}

/**
 * IF(logical_test, value_if_true, [value_if_false]): the parser handed IF its references
 * unread (every `IF(A1, …)` was TRUE). A reference is read here: an empty cell is FALSE, a
 * number is TRUE unless 0, text other than "TRUE"/"FALSE" is #VALUE!, as in Excel.
 */
function IF(context: ParserContext, ...args: unknown[]): unknown {
  const read = (argument: unknown) => context.utils.extractRefValue(argument);
  const test = read(args[0]);
  const first = test.isArray ? (test.val as unknown[][])[0][0] : test.val;
  if (first instanceof FormulaError) return first;
  let truth: boolean;
  if (first === null || first === undefined) truth = false;
  else if (typeof first === "boolean") truth = first;
  else if (typeof first === "number") truth = first !== 0;
  else if (typeof first === "string" && /^(TRUE|FALSE)$/i.test(first))
    truth = /^TRUE$/i.test(first);
  else return new FormulaError("#VALUE!");
  const chosen = truth ? args[1] : args.length > 2 ? args[2] : false;
  // An omitted value_if_true or value_if_false is 0 ("=IF(TRUE,)" shows 0).
  if (chosen === null || chosen === undefined) return 0;
  const value = read(chosen).val;
  return value ?? 0;
}

/**
 * SEARCH(find_text, within_text, [start_num]): "SEARCH and SEARCHB are not case sensitive"
 * (FIND is); "You can use the wildcard characters — the question mark (?) and asterisk (*)";
 * "If the start_num argument is omitted, it is assumed to be 1"; "If start_num is not greater
 * than zero (0) or is greater than the length of the within_text argument, the #VALUE! error
 * value is returned", as is a find_text not found. (The parser's own was case-sensitive.)
 */
function SEARCH(
  find: FunctionArgument,
  within: FunctionArgument,
  start?: FunctionArgument
): number | FormulaError {
  const needle = text(find);
  const source = text(within);
  const from = given(start) ? Math.trunc(number(start)) : 1;
  if (from < 1 || from > source.length) return new FormulaError("#VALUE!");
  const at = source.slice(from - 1).search(wildcardPattern(needle, false));
  return at < 0 ? new FormulaError("#VALUE!") : at + from;
}

/**
 * COUNTA(value1, …): "counts cells containing any type of information, including error values";
 * it "does not count empty cells".
 */
function COUNTA(...params: FunctionArgument[]): number {
  let count = 0;
  helpers.flattenParams(params, null, true, (item, info) => {
    if (info.isLiteral || (item !== null && item !== undefined && item !== "")) count++;
  });
  return count;
}

/** The functions the playground adds to (or puts in place of) the parser's built-ins. */
export const addedFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  UPPER,
  TRIM,
  MID,
  SUBSTITUTE,
  TEXTJOIN,
  VALUE,
  COUNTA,
  SEARCH,
  SEARCHB: SEARCH,
  TEXT,
  ...textSplitFunctions,
  ...choiceFunctions,
  ...dateFunctions,
  ...lookupFunctions,
  ...conditionalFunctions,
  ...arrayFunctions,
  ...roundingFunctions,
  ...aggregateFunctions,
};

/** Added functions that take the parser first (as the parser's IF does). */
export const addedFunctionsNeedingContext: Record<
  string,
  (context: ParserContext, ...args: unknown[]) => unknown
> = { IF, ...conditionalFunctionsNeedingContext, ...lookupFunctionsNeedingContext };
