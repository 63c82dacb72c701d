/**
 * TEXT(value, format_text) as Microsoft's TEXT page describes it: "The TEXT function lets you
 * change the way a number appears by applying formatting to it with format codes". The parser's
 * own took only numbers (`=TEXT(A1,"@")` over a word was #VALUE!; Excel's "@" shows the text)
 * and rounded the binary number (`=TEXT(1.005,"0.00")` was "1.00", Excel's "1.01"; `"0%"` of
 * 0.285 was "28%", Excel's "29%"). The number is rounded here in decimal first, as ROUND is
 * (rounding.ts), to the places the format shows; the format is then applied by the parser's
 * own formatter (SSF), which also places a text in a format's text section ("@").
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";
import * as ssf from "fast-formula-parser/ssf/ssf";
import { roundDecimal } from "./rounding.js";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;

/** A format's sections (positive;negative;zero;text), its quoted texts and escapes kept. */
function sections(format: string): string[] {
  return format.match(/(?:"[^"]*"|\\.|[^;"\\])+|(?<=^|;)(?=;|$)/g) ?? [format];
}

/**
 * How many decimal places a number section shows (`"0.00"` 2, `"0.0%"` 3, `"#,##0"` 0,
 * `"#,##0,"` -3: a comma after the last digit scales by 1,000), or undefined when it is a date,
 * a time, a fraction or scientific (those round their own way).
 */
function decimalPlaces(section: string): number | undefined {
  const code = section.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, "");
  if (/[ymdhs]|E[+-]|\//i.test(code) || /general/i.test(code)) return undefined;
  const after = /\.([0#?]*)/.exec(code)?.[1].length ?? 0;
  const percents = (code.match(/%/g) ?? []).length;
  const scaling = /[0#?.](,+)(?![,0#?])/.exec(code)?.[1].length ?? 0;
  return after + 2 * percents - 3 * scaling;
}

/** The section of `format` that shows `value` (Excel's: positive;negative;zero;text). */
function sectionFor(format: string, value: number): string {
  const all = sections(format);
  if (value < 0 && all.length > 1) return all[1];
  if (value === 0 && all.length > 2) return all[2];
  return all[0];
}

/**
 * TEXT(value, format_text): a number (or text that reads as one) formatted; other text put in
 * the format's text section, or kept as it is when the format has none (Excel's rule).
 *
 * ## Example
 * ```ts
 * // =TEXT(1.005,"0.00") → "1.01"; =TEXT("Blue","@") → "Blue"; =TEXT(39448,"yyyy-mm-dd") → "2008-01-01"
 * ```
 */
export function TEXT(value: FunctionArgument, formatText: FunctionArgument): string {
  const format = helpers.accept(formatText, types.STRING) as string;
  let shown: unknown = value.value;
  if (shown instanceof FormulaError) throw shown;
  if (typeof shown === "string" && shown.trim() !== "" && Number.isFinite(Number(shown)))
    shown = Number(shown);
  if (typeof shown === "string") return ssf.format(format, shown) as string;
  const number = helpers.accept(value, types.NUMBER) as number;
  const places = decimalPlaces(sectionFor(format, number));
  const rounded = places === undefined ? number : roundDecimal(number, places, Math.round);
  try {
    return ssf.format(format, rounded) as string;
  } catch {
    throw new FormulaError("#VALUE!");
  }
}
