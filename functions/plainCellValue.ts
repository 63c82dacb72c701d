import { excelError } from "./excelError.js";

/** What each kind of rich value is called in messages, for the kinds spells cannot take. */
const REFUSED_KINDS: Readonly<Record<string, string>> = {
  WebImage: "an image",
  Error: "an error value",
  Array: "an array value",
  Function: "a function value (LAMBDA)",
  Reference: "a reference value",
  NotAvailable: "a value Excel could not make available",
};

/**
 * Turns one argument cell into a plain value (text, number, logical or empty). Because
 * functions.json allows custom data for `any` parameters (`allowCustomDataForDataTypeAny`), a cell
 * holding an Excel data type arrives as its JSON object, not as what the cell shows; spells take
 * plain JSON, so:
 *
 * | Cell holds                                   | Sent                                    |
 * |----------------------------------------------|-----------------------------------------|
 * | an entity or linked entity (Stocks, a card)  | its display text (`text`)               |
 * | a formatted number, a number, text, logical  | its basic value (the format is dropped) |
 * | an empty data type value                     | empty                                   |
 * | an image, error, array, LAMBDA, reference…   | refused: `#VALUE!` naming the kind      |
 *
 * An entity's display text is what the user sees in the cell, so that is what the spell gets; an
 * image has nothing to stand for it, and sending its URL or a JSON dump would be a guess.
 *
 * ## Example
 * ```ts
 * plainCellValue({ type: "Entity", text: "Microsoft Corporation", properties: {} }); // "Microsoft Corporation"
 * plainCellValue({ type: "FormattedNumber", basicValue: 0.25, numberFormat: "0%" });   // 0.25
 * plainCellValue("Hello");                                                              // "Hello"
 * ```
 *
 * @param value One cell as Excel passes it.
 * @return The plain value; anything that is not an object is returned unchanged.
 * @throws `#VALUE!` for a data type that has no plain value to send.
 */
export function plainCellValue(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const rich = value as { type?: unknown; text?: unknown; basicValue?: unknown };
  const kind = typeof rich.type === "string" ? rich.type : "";
  switch (kind) {
    case "Entity":
    case "LinkedEntity":
      if (typeof rich.text === "string") return rich.text;
      throw refused("an entity value without display text");
    case "Double":
    case "FormattedNumber":
    case "String":
    case "Boolean":
      if (["number", "string", "boolean"].includes(typeof rich.basicValue)) return rich.basicValue;
      break;
    case "Empty":
      return null;
  }
  throw refused(
    REFUSED_KINDS[kind] ?? `a data type Spell Run cannot send${kind ? ` (${kind})` : ""}`
  );
}

function refused(what: string): CustomFunctions.Error {
  return excelError(
    "#VALUE!",
    `An input cell holds ${what}; spells take text, numbers and logical values. Point to a cell with text instead.`
  );
}
