/**
 * ROUND, ROUNDUP and ROUNDDOWN as Excel rounds: in decimal, half away from zero ("If num_digits
 * is greater than 0 (zero), then number is rounded to the specified number of decimal places";
 * `=ROUND(-1.475, 2)` is -1.48), on the number as Excel shows it (15 significant digits), so that
 * `=ROUND(1.005,2)` is 1.01 as in Excel. fast-formula-parser rounded the binary number (1.005 is
 * 1.00499999… there: it gave 1) and rounded up by adding half a unit first (`=ROUNDUP(1,1)` was
 * 1.1; Excel's is 1).
 */
import FormulaParser from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;

/**
 * `number` rounded to `digits` decimal places (negative: to the left of the point) by `step`,
 * which rounds a non-negative number to a whole one.
 *
 * ## Example
 * ```ts
 * roundDecimal(1.005, 2, Math.round); // 1.01
 * roundDecimal(1234.5, -2, Math.round); // 1200
 * ```
 */
export function roundDecimal(
  number: number,
  digits: number,
  step: (value: number) => number
): number {
  if (!Number.isFinite(number) || number === 0) return number;
  const places = Math.trunc(digits);
  // The number's 15 significant digits, shifted in decimal (no binary multiplication).
  const [mantissa, exponent] = Math.abs(number).toExponential(14).split("e");
  const shifted = Number(`${mantissa}e${Number(exponent) + places}`);
  // Past 15 significant digits there is nothing left to round.
  if (shifted >= 1e15) return number;
  const whole = step(shifted);
  const result = Number(`${whole}e${-places}`);
  return number < 0 ? -result : result;
}

const rounding =
  (step: (value: number) => number) =>
  (number: FunctionArgument, digits: FunctionArgument): number =>
    roundDecimal(
      helpers.accept(number, types.NUMBER) as number,
      helpers.accept(digits, types.NUMBER) as number,
      step
    );

/** Half away from zero on the number's magnitude ("round half up" of a non-negative number). */
const halfUp = (value: number) => Math.floor(value + 0.5);

/** ROUND, ROUNDUP (away from zero) and ROUNDDOWN (toward zero). */
export const roundingFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  ROUND: rounding(halfUp),
  ROUNDUP: rounding(Math.ceil),
  ROUNDDOWN: rounding(Math.floor),
};
