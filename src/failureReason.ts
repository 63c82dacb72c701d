/** Where spells put the explanation of a run that did not succeed, most telling first. */
const REASON_FIELDS = ["reason", "error", "message", "detail"] as const;

/**
 * The explanation in the outputs of a run that ended in `failure` or `error`: the first
 * non-empty text among `reason`, `error`, `message` and `detail` (spells name it differently),
 * trimmed; `undefined` when there is none. Every front end (cell, task pane, command line)
 * shows this same text and decides itself what to show without one.
 *
 * ## Example
 * ```ts
 * failureReason({ error: " Input too long " }); // "Input too long"
 * failureReason({ code: 7 }); // undefined
 * ```
 * @param outputs a failed run's outputs (`SpellRunError.outputs`, `BulkRunEntry.outputs`)
 * @return the explanation, or undefined
 */
export function failureReason(outputs: Record<string, unknown> | undefined): string | undefined {
  for (const name of REASON_FIELDS) {
    const value = outputs?.[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}
