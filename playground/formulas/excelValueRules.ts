/**
 * Excel's rules for the values a formula compares and hands to functions, where
 * fast-formula-parser strays from them.
 *
 * An empty cell that a formula reads is, as in Excel, "" where text is wanted (`=LEN(A1)` is 0,
 * `=A1=""` is TRUE), 0 where a number is (`=A1+1` is 1, `=A1` shows 0) and FALSE where a logical
 * value is (`=NOT(A1)` is TRUE).
 *
 * fast-formula-parser hands an empty cell to a function as a reference whose value is `null`,
 * and its functions read every argument through one helper, `accept(argument, type)`. That helper
 * took the reference itself for the value, so `=LEN(B5)` of an empty B5 counted "[object Object]"
 * (15), `=ABS(B5)` failed and `=NOT(B5)` was FALSE. The helper is the one place that knows which
 * type a function wants, so the rule is applied there, once, for every function; and in the
 * parser's comparison, where an empty cell compared with text was 0 (`=B5=""` was FALSE).
 *
 * Text is compared without regard to case (`="Yes"="yes"` is TRUE; Microsoft, EXACT: "EXACT is
 * case-sensitive", unlike the = operator); the parser compared it case by case.
 *
 * Text that looks like a number is that number where a number is wanted (`="50%"*2` is 1,
 * `="1,234"+0` 1234, `=SQRT("4")` 2), by the rule a typed entry follows (`numberFromText`); the
 * parser's `acceptNumber` took only what JavaScript's `Number()` takes.
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FormulaHelpersApi } from "fast-formula-parser";
import operators from "fast-formula-parser/formulas/operators";
import { numberFromText } from "../excel/numericText.js";
import { useArrayOperators } from "./arrayOperators.js";

let installed = false;

/**
 * Whether a function's argument is an empty cell: a reference (not a literal, not omitted)
 * whose value is nothing.
 */
function isEmptyCellArgument(argument: unknown): boolean {
  if (typeof argument !== "object" || argument === null || Array.isArray(argument)) return false;
  const candidate = argument as { value?: unknown; omitted?: boolean; isArray?: boolean };
  return (
    "value" in candidate && candidate.value == null && !candidate.omitted && !candidate.isArray
  );
}

/**
 * What an empty cell is in the context of `type` (one of the parser's `Types`), or `undefined`
 * when the function takes the argument unparsed or as an array (the parser's own reading holds).
 */
function emptyAs(type: number | null | undefined): string | number | boolean | undefined {
  const types = FormulaParser.Types;
  if (type === types.STRING) return "";
  if (type === types.NUMBER || type === types.NUMBER_NO_BOOLEAN) return 0;
  if (type === types.BOOLEAN) return false;
  return undefined;
}

/**
 * Makes the parser read empty cells and compare text as Excel does (idempotent; the parser's
 * helpers are shared by every parser of the page).
 */
export function useExcelValueRules(): void {
  if (installed) return;
  installed = true;
  const helpers: FormulaHelpersApi = FormulaParser.FormulaHelpers;
  const accept = helpers.accept.bind(helpers);
  helpers.accept = (argument, type, ...rest) => {
    const wanted = Array.isArray(type) ? (type[0] as number) : type;
    // `null` alone is an empty cell of a range being flattened (CONCAT(A1:C1)); a missing
    // argument is `undefined` and keeps its default.
    if (isEmptyCellArgument(argument) || argument === null) {
      const empty = emptyAs(wanted);
      if (empty !== undefined) return empty;
    }
    return accept(argument, type, ...rest);
  };
  // Text that looks like a number is that number where one is wanted (`="50%"*2` is 1), as in
  // Excel; the parser took only what JavaScript's Number() takes ("1,234" was #VALUE!, " " 0).
  const acceptNumber = helpers.acceptNumber.bind(helpers);
  helpers.acceptNumber = (value, ...rest) => {
    if (typeof value !== "string") return acceptNumber(value, ...rest);
    const read = numberFromText(value);
    if (read === undefined) throw new FormulaError("#VALUE!");
    return read.value;
  };
  const compare = operators.Infix.compareOp;
  operators.Infix.compareOp = (left, infix, right, leftIsArray, rightIsArray) => {
    const one = (value: unknown, isArray: boolean) => (isArray ? firstOf(value) : value);
    let first = one(left, leftIsArray) ?? emptyLike(one(right, rightIsArray));
    let second = one(right, rightIsArray) ?? emptyLike(first);
    if (typeof first === "string" && typeof second === "string") {
      first = first.toLowerCase();
      second = second.toLowerCase();
    }
    return compare(first, infix, second, false, false);
  };
  // After the comparison above, so that each value of an array is compared by its rules.
  useArrayOperators();
}

/** An empty cell compared with `other`: "" with text, FALSE with a logical value, else 0. */
function emptyLike(other: unknown): unknown {
  if (typeof other === "string") return "";
  if (typeof other === "boolean") return false;
  return 0;
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) && Array.isArray(value[0]) ? (value[0] as unknown[])[0] : value;
}
