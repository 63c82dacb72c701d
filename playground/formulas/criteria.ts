/**
 * Excel's criteria, as COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF and AVERAGEIFS read them
 * (Microsoft, COUNTIF): a number, an expression, a cell reference or text ("32", ">32", B4,
 * "apples"); "Criteria aren't case sensitive"; "Use wildcard characters ... A question mark
 * matches any single character. An asterisk matches any sequence of characters. If you want to
 * find an actual question mark or asterisk, type a tilde (~) in front of the character"; `""`
 * counts the empty cells and `"<>"` the cells that are not (Microsoft, "Count cells that are not
 * blank"); COUNTIFS: "If the criteria argument is a reference to an empty cell, the COUNTIFS
 * function treats the empty cell as a 0 value."
 *
 * A comparison with a number (">5", "=5", 5) takes only numbers, one with text only text (case
 * ignored), one with TRUE or FALSE only logical values; `"<>…"` takes every cell the same
 * criterion without it does not take, empty cells included.
 *
 * fast-formula-parser's criteria matched text case by case, found a wildcard pattern anywhere in
 * a cell ("a*" took "Banana") and took a tilde for itself.
 */
import { FormulaError } from "fast-formula-parser";
import { compareSameKind } from "./valueOrder.js";
import { hasWildcards, wildcardPattern } from "./wildcards.js";

/** Whether a cell's value meets a criterion. */
export type Criterion = (value: unknown) => boolean;

const OPERATOR = /^(<=|>=|<>|<|>|=)?([\s\S]*)$/;
const ERROR_CODE = /^#(NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|CALC!|SPILL!)$/i;

const isEmpty = (value: unknown) => value === null || value === undefined || value === "";

/** A number written as a criterion's operand ("5", "-1.5", "1e3", " 7 "), else `undefined`. */
function numberIn(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "" || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?%?$/i.test(trimmed)) return undefined;
  const percent = trimmed.endsWith("%");
  const number = Number(percent ? trimmed.slice(0, -1) : trimmed);
  return percent ? number / 100 : number;
}

/** A comparison of a cell's value with `operand` (both of the same kind, else not met). */
function comparing(operator: string, operand: unknown): Criterion {
  return (value) => {
    const order = compareSameKind(value, operand);
    if (order === undefined) return false;
    if (operator === "<") return order < 0;
    if (operator === ">") return order > 0;
    if (operator === "<=") return order <= 0;
    if (operator === ">=") return order >= 0;
    return order === 0;
  };
}

/** A criterion that is `equal`, or its opposite for `<>`. */
function equalOrNot(operator: string, equal: Criterion): Criterion {
  return operator === "<>" ? (value) => !equal(value) : equal;
}

/**
 * The criterion a function's criteria argument gives.
 *
 * ## Example
 * ```ts
 * const over5 = criterion(">5");
 * over5(7); // true
 * over5("7 apples"); // false
 * criterion("b*n")("BEAN"); // true
 * ```
 *
 * @param given The argument's value: a number, text, a logical value, an error, or `null` for
 *   a reference to an empty cell.
 * @return Whether a cell's value meets it.
 */
export function criterion(given: unknown): Criterion {
  if (given === null || given === undefined) return comparing("=", 0);
  if (given instanceof FormulaError) {
    return (value) => value instanceof FormulaError && value.error === given.error;
  }
  if (typeof given !== "string") return comparing("=", given);
  const [, operator = "", operand] = OPERATOR.exec(given) as RegExpExecArray;
  if (operand === "") {
    // "" and "=": the empty cells; "<>": the others (Excel's "=" alone takes only cells with
    // nothing in them, which this model does not tell from empty text).
    if (operator === "" || operator === "=") return isEmpty;
    if (operator === "<>") return (value) => !isEmpty(value);
    return comparing(operator, "");
  }
  if (ERROR_CODE.test(operand)) {
    const code = operand.toUpperCase();
    return equalOrNot(operator, (value) => value instanceof FormulaError && value.error === code);
  }
  // "<>5" is "=5" turned round; no operator is "=".
  const base = operator === "<>" || operator === "" ? "=" : operator;
  const number = numberIn(operand);
  if (number !== undefined) return equalOrNot(operator, comparing(base, number));
  if (/^(TRUE|FALSE)$/i.test(operand)) {
    return equalOrNot(operator, comparing(base, /^TRUE$/i.test(operand)));
  }
  if (base === "=") {
    const pattern =
      hasWildcards(operand) || operand.includes("~") ? wildcardPattern(operand, true) : undefined;
    const lower = operand.toLowerCase();
    const equal: Criterion = pattern
      ? (value) => typeof value === "string" && pattern.test(value)
      : (value) => typeof value === "string" && value.toLowerCase() === lower;
    return equalOrNot(operator, equal);
  }
  return comparing(operator, operand);
}
