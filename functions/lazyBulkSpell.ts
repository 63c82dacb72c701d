import { excelError } from "./excelError.js";

/**
 * `SPELL.BULK` with its module (the spill, the table's parsing) loaded on its first call: most
 * workbooks use `SPELL.RUN` only, and functions.js, which Excel loads at start, stays small.
 *
 * A cancel while the module loads is kept: the call then starts nothing (a bulk costs money);
 * once loaded, `bulkSpell` takes `onCanceled` over.
 *
 * ## Example
 * ```ts
 * lazyBulkSpell("sentiment", [["text"], ["I love it"]], null, invocation);
 * ```
 *
 * @param spellIdArgument The spell ID.
 * @param tableArgument Input names over one row per run.
 * @param outputsArgument Output name(s) to show; `null` for all.
 * @param invocation Excel's streaming invocation.
 * @return A promise that settles once `bulkSpell` was called, or was not (cancelled, not loaded).
 */
export function lazyBulkSpell(
  spellIdArgument: unknown,
  tableArgument: unknown,
  outputsArgument: unknown,
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>
): Promise<void> {
  let cancelled = false;
  invocation.onCanceled = () => {
    cancelled = true;
  };
  return import("./bulkSpell.js").then(
    ({ bulkSpell }) => {
      if (!cancelled) bulkSpell(spellIdArgument, tableArgument, outputsArgument, invocation);
    },
    (error: unknown) => {
      if (cancelled) return;
      const reason = error instanceof Error ? error.message : String(error);
      invocation.setResult(
        excelError("#N/A", `SPELL.BULK could not be loaded (${reason}). Reload the add-in.`)
      );
    }
  );
}
