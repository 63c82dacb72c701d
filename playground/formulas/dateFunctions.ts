/**
 * Date functions fast-formula-parser gets wrong, to Microsoft's pages. EDATE(start_date, months)
 * "returns the serial number that represents the date that is the indicated number of months
 * before or after a specified date"; a day past the end of the month found is that month's last
 * day (`=EDATE("31-Jan-2011",1)` is 28-Feb-2011; the parser's rolled on into March).
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;
const DAY_MS = 86_400_000;
/** Serial 0 of Excel's 1900 date system, counted from after its 29-Feb-1900 (serial 60). */
const EPOCH = Date.UTC(1899, 11, 30);

/** A date argument's serial number (a date written as text is read as Excel reads it). */
function serialOf(argument: FunctionArgument): number {
  const value = argument.value;
  if (typeof value === "string" && !Number.isFinite(Number(value))) {
    const parsed = Date.parse(`${value} UTC`);
    if (Number.isNaN(parsed)) throw new FormulaError("#VALUE!");
    return Math.round((parsed - EPOCH) / DAY_MS);
  }
  return Math.trunc(helpers.accept(argument, types.NUMBER) as number);
}

/** EDATE(start_date, months): the same day `months` months on, or the month's last day. */
function EDATE(start: FunctionArgument, months: FunctionArgument): number | FormulaError {
  const serial = serialOf(start);
  const shift = Math.trunc(helpers.accept(months, types.NUMBER) as number);
  if (serial < 0) return new FormulaError("#NUM!");
  const date = new Date(EPOCH + serial * DAY_MS);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + shift;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay));
  const found = Math.round((result - EPOCH) / DAY_MS);
  return found < 1 ? new FormulaError("#NUM!") : found;
}

/** The date functions put in place of the parser's. */
export const dateFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = { EDATE };
