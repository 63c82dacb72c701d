import type { CellScalar } from "./toCellWrite.js";

const MS_PER_DAY = 86_400_000;
/** Day 0 of Excel's 1900 date system for serials from 61 on (1900-03-01), past the fake 1900-02-29. */
const EPOCH_AFTER_LEAP_BUG = Date.UTC(1899, 11, 30);
/** Day 0 for serials 1..59 (1900-01-01 is serial 1). */
const EPOCH_BEFORE_LEAP_BUG = Date.UTC(1899, 11, 31);

/**
 * What a number format shows of a date: its date part, its time part, or neither (not a date
 * format). Quoted text, `\`-escaped characters and `[...]` sections (colours, locales, conditions)
 * are ignored; `General`, `0.00`, `$#,##0`, `0%`, `@` are not date formats.
 *
 * ## Example
 * ```ts
 * dateFormatParts("yyyy-mm-dd"); // { date: true, time: false }
 * dateFormatParts("0.00");       // undefined
 * ```
 */
export function dateFormatParts(format: string): { date: boolean; time: boolean } | undefined {
  const bare = format
    .split(";")[0]
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .toLowerCase();
  if (bare.trim() === "" || bare.includes("general")) return undefined;
  const time = /[hs]/.test(bare);
  const date = /[dy]/.test(bare) || (/m/.test(bare) && !time);
  return date || time ? { date, time } : undefined;
}

/**
 * The value a cell's input is sent as: a number shown through a date or time format becomes
 * ISO 8601 text (`2024-01-01`, `2024-01-01T13:45:00`, `13:45:00`) instead of Excel's serial
 * (45292), so the spell gets the date the user sees, independent of the user's locale. Every
 * other value is unchanged. The 1900 date system is assumed (the 1904 system of old Mac
 * workbooks is not detected).
 *
 * ## Example
 * ```ts
 * dateInputValue(45292, "m/d/yyyy"); // "2024-01-01"
 * dateInputValue(45292, "General");  // 45292
 * ```
 */
export function dateInputValue(value: CellScalar, numberFormat: string | undefined): CellScalar {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || !numberFormat) {
    return value;
  }
  const parts = dateFormatParts(numberFormat);
  if (!parts) return value;
  const days = Math.floor(value);
  const epoch = days >= 61 || days === 0 ? EPOCH_AFTER_LEAP_BUG : EPOCH_BEFORE_LEAP_BUG;
  const milliseconds = Math.round((value - days) * 86_400) * 1000;
  const iso = new Date(epoch + days * MS_PER_DAY + milliseconds).toISOString();
  const datePart = iso.slice(0, 10);
  const timePart = iso.slice(11, 19);
  if (parts.date && parts.time) return `${datePart}T${timePart}`;
  return parts.date ? datePart : timePart;
}
