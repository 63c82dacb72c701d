/**
 * How Excel compares the values of cells where it looks them up or sorts them: text without
 * regard to case ("MATCH does not distinguish between uppercase and lowercase letters when
 * matching text values"), a value never equal to one of another kind (the number 5 is not the
 * text "5"), and in ascending order "...-2, -1, 0, 1, 2, ..., A-Z, FALSE, TRUE" (MATCH's
 * match_type 1), errors after them.
 */
import { FormulaError } from "fast-formula-parser";

/** The kinds of values in Excel's ascending order (an empty cell is none of them). */
const KIND_ORDER = { number: 0, string: 1, boolean: 2, error: 3 } as const;

/** A value's kind in Excel's order, or `undefined` for an empty cell. */
export function kindOf(value: unknown): keyof typeof KIND_ORDER | undefined {
  if (value instanceof FormulaError) return "error";
  if (typeof value === "number") return "number";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  return undefined;
}

/**
 * Compares two values of the same kind (text without regard to case); `undefined` when their
 * kinds differ or either is an empty cell.
 */
export function compareSameKind(left: unknown, right: unknown): number | undefined {
  const kind = kindOf(left);
  if (kind === undefined || kind !== kindOf(right)) return undefined;
  if (kind === "error") return 0;
  const a = kind === "string" ? (left as string).toLowerCase() : (left as number | boolean);
  const b = kind === "string" ? (right as string).toLowerCase() : (right as number | boolean);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Excel's ascending order of any two values: numbers, then text (case ignored), then FALSE and
 * TRUE, then errors; empty cells last (SORT and Excel's sort put them last both ways, so the
 * caller handles them).
 */
export function compareValues(left: unknown, right: unknown): number {
  const same = compareSameKind(left, right);
  if (same !== undefined) return same;
  const a = kindOf(left);
  const b = kindOf(right);
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return KIND_ORDER[a] - KIND_ORDER[b];
}

/**
 * A function's argument as rows of values: a range or an array as it is, one value as one row
 * of one cell.
 */
export function gridOf(value: unknown): unknown[][] {
  if (Array.isArray(value) && (value.length === 0 || Array.isArray(value[0]))) {
    return value as unknown[][];
  }
  return [[value]];
}
