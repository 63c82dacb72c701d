/**
 * Date functions fast-formula-parser gets wrong, to Microsoft's pages. EDATE(start_date, months)
 * "returns the serial number that represents the date that is the indicated number of months
 * before or after a specified date"; a day past the end of the month found is that month's last
 * day (`=EDATE("31-Jan-2011",1)` is 28-Feb-2011; the parser's rolled on into March).
 * WEEKDAY(serial_number, [return_type]) counts as Excel does, serial 1 being a Sunday (Excel's
 * 1900 date system has a 29 February 1900, so serial 1 is Sunday 1 January 1900): the parser's
 * counted from the real calendar below serial 61 (`=WEEKDAY(2)` was 3; Excel's, and SWITCH's
 * documented example over it, 2).
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

/** WEEKDAY's return_type: the day (0 Sunday … 6 Saturday) counted 1 (or 0 for type 3). */
const WEEK_STARTS: Record<number, { first: number; from: number }> = {
  1: { first: 0, from: 1 },
  2: { first: 1, from: 1 },
  3: { first: 1, from: 0 },
  11: { first: 1, from: 1 },
  12: { first: 2, from: 1 },
  13: { first: 3, from: 1 },
  14: { first: 4, from: 1 },
  15: { first: 5, from: 1 },
  16: { first: 6, from: 1 },
  17: { first: 0, from: 1 },
};

/** WEEKDAY(serial_number, [return_type]): 1 (Sunday) to 7 (Saturday) by default. */
function WEEKDAY(date: FunctionArgument, returnType?: FunctionArgument): number | FormulaError {
  const serial = serialOf(date);
  const type =
    returnType && !returnType.omitted
      ? Math.trunc(helpers.accept(returnType, types.NUMBER) as number)
      : 1;
  const week = WEEK_STARTS[type];
  if (serial < 0 || !week) return new FormulaError("#NUM!");
  const day = (((serial - 1) % 7) + 7) % 7; // 0 Sunday … 6 Saturday
  return ((day - week.first + 7) % 7) + week.from;
}

/** The date functions put in place of the parser's. */
export const dateFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  EDATE,
  WEEKDAY,
};
