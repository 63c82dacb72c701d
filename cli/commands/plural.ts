/**
 * A count with its noun, singular for one: "1 bulk run", "3 bulk runs", "0 rows".
 *
 * ## Example
 * ```ts
 * plural(1, "bulk run"); // "1 bulk run"
 * ```
 * @param count the count
 * @param noun the noun in the singular (its plural adds an "s")
 * @return the text
 */
export function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
