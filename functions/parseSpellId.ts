import { excelError } from "./excelError.js";

/**
 * Reads the `spell_id` argument: non-empty text (a 1×1 range is accepted as its value).
 *
 * ## Example
 * ```ts
 * parseSpellId(" summarize "); // "summarize"
 * ```
 *
 * @param value The argument as Excel passes it.
 * @return The trimmed spell id.
 * @throws `#VALUE!` when it is empty or not text.
 */
export function parseSpellId(value: unknown): string {
  const cell =
    Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) && value[0].length === 1
      ? value[0][0]
      : value;
  if (typeof cell === "string" && cell.trim() !== "") return cell.trim();
  // Some Excel builds pass an empty cell as 0 (office-js #4702); no spell is called 0.
  const got =
    cell === null || cell === undefined || cell === 0 || (typeof cell === "string" && !cell.trim())
      ? "empty"
      : Array.isArray(cell)
        ? "a range"
        : `${typeof cell}`;
  throw excelError(
    "#VALUE!",
    `spell_id is ${got}. Give the spell's ID as text, e.g. "summarize" (find it in the spell's URL or API tab).`
  );
}
