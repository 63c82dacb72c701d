/**
 * Excel's reading of text that looks like a number (en-US), as it reads a typed entry and as its
 * arithmetic operators read text ("How Excel converts text to numbers in formulas": `="50%"*2`
 * is 1, `="1,234"+0` is 1234, `="$12.50"*2` is 25). Dates and times, which Excel also reads, are
 * not read here.
 */

/** A number read from text, and the number format Excel gives a cell where it is typed. */
export interface NumericText {
  value: number;
  /** "General", or the format the text's look implies: "0%", "#,##0", "$#,##0.00", "0.00E+00". */
  format: string;
}

/**
 * Spaces around, a sign or parentheses, a dollar sign before or after the sign, digits (commas
 * between groups of three), a fraction, an exponent, a percent sign.
 */
const NUMERIC =
  /^ *(\()?([+-])?(\$)?([+-])?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?(?:e([+-]?\d+))?(%)? *(\))? *$/i;

/**
 * The number `text` stands for, with the format Excel gives it when typed; `undefined` when Excel
 * keeps it as text.
 *
 * ## Example
 * ```ts
 * numberFromText("50%"); // { value: 0.5, format: "0%" }
 * numberFromText(" 1,234 "); // { value: 1234, format: "#,##0" }
 * numberFromText("12 apples"); // undefined
 * ```
 *
 * @param text The text.
 * @return The number and its format, or undefined.
 */
export function numberFromText(text: string): NumericText | undefined {
  const match = NUMERIC.exec(text);
  if (!match) return undefined;
  const [, open, signBefore, dollar, signAfter, whole, fraction, exponent, percent, close] = match;
  if (whole === undefined && !fraction) return undefined; // no digit at all ("$", ".", "%")
  if (Boolean(open) !== Boolean(close)) return undefined;
  if (signBefore && signAfter) return undefined;
  if (signAfter && !dollar) return undefined; // caught by signBefore otherwise
  const sign = signBefore ?? signAfter;
  if (open && sign) return undefined; // "(-5)" stays text
  const grouped = whole?.includes(",") ?? false;
  if (exponent !== undefined && (grouped || dollar)) return undefined;
  // In decimal, so that 0.07% is 0.0007 and not 0.0007000000000000001.
  const shift = Number(exponent ?? 0) - (percent ? 2 : 0);
  let value = Number(`${(whole ?? "0").replace(/,/g, "")}.${fraction ?? ""}0e${shift}`);
  if (sign === "-" || open) value = -value;
  return {
    value: value === 0 ? 0 : value,
    format: formatOf(fraction, grouped, dollar, exponent, percent),
  };
}

/** The format Excel gives a typed number by its look. */
function formatOf(
  fraction: string | undefined,
  grouped: boolean,
  dollar: string | undefined,
  exponent: string | undefined,
  percent: string | undefined
): string {
  const decimals = fraction ? ".00" : "";
  if (percent) return `0${decimals}%`;
  if (exponent !== undefined) return "0.00E+00";
  if (dollar) return `$#,##0${decimals}`;
  if (grouped) return `#,##0${decimals}`;
  return "General";
}

/**
 * A number as a cell of format `format` shows it, for the formats `numberFromText` gives (any
 * other format shows the number as General does).
 *
 * ## Example
 * ```ts
 * formatNumber(0.5, "0%"); // "50%"
 * formatNumber(-1234.5, "$#,##0.00"); // "-$1,234.50"
 * ```
 *
 * @param value The number.
 * @param format The cell's number format.
 * @return The text shown.
 */
export function formatNumber(value: number, format: string): string {
  const decimals = format.includes(".00") ? 2 : 0;
  const grouped = (n: number) =>
    n.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  const sign = value < 0 ? "-" : "";
  switch (format.replace(".00", "")) {
    case "0%":
      return `${(value * 100).toFixed(decimals)}%`;
    case "0E+00":
      return value
        .toExponential(2)
        .toUpperCase()
        .replace(/E([+-])(\d)$/, "E$10$2");
    case "$#,##0":
      return `${sign}$${grouped(Math.abs(value))}`;
    case "#,##0":
      return grouped(value);
    default:
      return String(value);
  }
}
