import { cellToInputValue } from "./cellToInputValue.js";
import { excelError } from "./excelError.js";
import { isBlankName } from "./isBlankName.js";
import { EXCEL_CELL_CHARACTER_LIMIT } from "./toCellValue.js";

/**
 * `SPELL.INPUTS(name1, value1, [name2, value2], ...)`: pairs of a name and a value (a single cell,
 * or a range, which becomes a list) into the JSON text of an inputs object for `SPELL.RUN`.
 * Excel passes the repeating argument as one array of 2-D arrays, one per argument. An empty name
 * cell (also when Excel passes it as `0`) is refused; an empty value cell is sent as `""`, but a
 * value cell Excel passes as `0` is sent as `0` (it may be a typed zero; `A2&""` sends text).
 *
 * ## Example
 * ```ts
 * buildInputs([[["text"]], [["Hello"]], [["language"]], [["fr"]]]); // '{"text":"Hello","language":"fr"}'
 * ```
 *
 * @param namesAndValues The repeating argument: name, value, name, value, ...
 * @return JSON text of the inputs object.
 * @throws `#VALUE!` for an odd count, an empty or non-text name, a name given twice, or JSON text
 *   longer than an Excel value holds.
 */
export function buildInputs(namesAndValues: unknown[]): string {
  const args = Array.isArray(namesAndValues) ? namesAndValues : [namesAndValues];
  if (args.length === 0 || args.length % 2 !== 0) {
    throw excelError(
      "#VALUE!",
      `SPELL.INPUTS needs pairs of a name and a value, e.g. SPELL.INPUTS("text", A2, "language", B2); it got ${args.length} argument${args.length === 1 ? "" : "s"}.`
    );
  }
  const entries: [string, unknown][] = [];
  const names = new Set<string>();
  for (let index = 0; index < args.length; index += 2) {
    const name = cellToInputValue(args[index]);
    const position = index + 1;
    // cellToInputValue has turned an empty cell into "", but a build that passes it as 0 is
    // read as empty too: no input is named 0.
    if (typeof name !== "string" || isBlankName(name)) {
      throw excelError(
        "#VALUE!",
        `SPELL.INPUTS argument ${position} must be an input name (text), not ${isBlankName(name) ? "empty" : Array.isArray(name) ? "a range" : typeof name}.`
      );
    }
    const trimmed = name.trim();
    if (names.has(trimmed)) {
      throw excelError("#VALUE!", `SPELL.INPUTS names "${trimmed}" twice.`);
    }
    names.add(trimmed);
    entries.push([trimmed, cellToInputValue(args[index + 1])]);
  }
  // Defined, not assigned: an input named "__proto__" is kept as data.
  const inputs = Object.fromEntries(entries);
  const text = JSON.stringify(inputs);
  if (text.length > EXCEL_CELL_CHARACTER_LIMIT) {
    throw excelError(
      "#VALUE!",
      `These inputs make ${text.length} characters of JSON, more than an Excel value holds (${EXCEL_CELL_CHARACTER_LIMIT}). Give SPELL.RUN a range of names and values instead.`
    );
  }
  return text;
}
