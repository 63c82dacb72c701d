import { UsageError } from "../errors/UsageError.js";

/**
 * How a table row becomes a spell's inputs: `only` picks the columns sent (all when absent),
 * `rename` maps a column to the input name the spell expects (`--map col=input`).
 *
 * ## Example
 * ```ts
 * const mapping: InputMapping = { only: ["body"], rename: { body: "text" } };
 * ```
 */
export interface InputMapping {
  only?: string[];
  rename: Record<string, string>;
}

/**
 * Builds the mapping from `--map col=input` (repeatable) and `--only col,col`.
 *
 * ## Example
 * ```ts
 * parseInputMapping(["body=text"], "body,lang"); // { only: ["body", "lang"], rename: { body: "text" } }
 * ```
 * @param maps the `--map` values
 * @param only the `--only` value
 * @return the mapping
 */
export function parseInputMapping(maps: string[] = [], only?: string): InputMapping {
  const rename: Record<string, string> = Object.fromEntries(
    maps.map((map) => {
      const equals = map.indexOf("=");
      if (equals <= 0 || equals === map.length - 1) {
        throw new UsageError(`--map takes column=input, not "${map}"`);
      }
      return [map.slice(0, equals), map.slice(equals + 1)];
    })
  );
  const picked = only
    ?.split(",")
    .map((column) => column.trim())
    .filter((column) => column !== "");
  return picked ? { only: picked, rename } : { rename };
}

/**
 * Checks a mapping against the table's columns: every `--only` and `--map` column must exist.
 *
 * ## Example
 * ```ts
 * checkInputMapping({ only: ["nope"], rename: {} }, ["text"]); // throws UsageError
 * ```
 * @param mapping the mapping
 * @param columns the table's columns
 */
export function checkInputMapping(mapping: InputMapping, columns: string[]): void {
  const known = new Set(columns);
  const named = [...(mapping.only ?? []), ...Object.keys(mapping.rename)];
  const missing = named.filter((column) => !known.has(column));
  if (missing.length > 0 && columns.length > 0) {
    throw new UsageError(
      `No column ${missing.map((column) => `"${column}"`).join(", ")} in the input (columns: ${columns.join(", ")})`
    );
  }
}

/**
 * The spell inputs of one row under a mapping.
 *
 * ## Example
 * ```ts
 * toSpellInputs({ body: "hi", id: "7" }, { only: ["body"], rename: { body: "text" } }); // { text: "hi" }
 * ```
 * @param values the row's values by column
 * @param mapping the mapping
 * @return the inputs object
 */
export function toSpellInputs(
  values: Record<string, unknown>,
  mapping: InputMapping
): Record<string, unknown> {
  // No mapping: the row itself (a copy per row would double the rows held in memory).
  if (!mapping.only && Object.keys(mapping.rename).length === 0) return values;
  const own = (object: object, name: string) => Object.prototype.hasOwnProperty.call(object, name);
  // Own names only, defined not assigned: columns "__proto__" or "constructor" are data.
  return Object.fromEntries(
    (mapping.only ?? Object.keys(values))
      .filter((column) => own(values, column))
      .map((column) => [
        own(mapping.rename, column) ? mapping.rename[column] : column,
        values[column],
      ])
  );
}
