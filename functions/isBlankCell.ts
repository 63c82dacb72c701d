/**
 * Whether an Excel argument value is an empty cell: Excel passes empty cells as `""` or `null`
 * depending on host and parameter type (an empty data type value as `{ type: "Empty" }`), and an
 * omitted optional argument as `null`/`undefined`. Some builds pass an empty cell as `0` instead
 * (office-js #4702, #1951); that cannot be told from a typed 0, so it is not blank here:
 * `isBlankName` treats it as blank where a name is expected.
 *
 * ## Example
 * ```ts
 * const used = row.filter((cell) => !isBlankCell(cell));
 * ```
 *
 * @param value One cell's value.
 * @return True for `""`, text of only spaces, `null`, `undefined` and an empty data type value.
 */
export function isBlankCell(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === "string" && value.trim() === "") ||
    (typeof value === "object" && (value as { type?: unknown }).type === "Empty")
  );
}
