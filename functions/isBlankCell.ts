/**
 * Whether an Excel argument value is an empty cell: Excel passes empty cells as `""` or `null`
 * depending on host and parameter type, and an omitted optional argument as `null`/`undefined`.
 *
 * ## Example
 * ```ts
 * const used = row.filter((cell) => !isBlankCell(cell));
 * ```
 *
 * @param value One cell's value.
 * @return True for `""`, text of only spaces, `null` and `undefined`.
 */
export function isBlankCell(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === "string" && value.trim() === "")
  );
}
