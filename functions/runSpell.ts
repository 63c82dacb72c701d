import { excelError } from "./excelError.js";
import { isInValuePreview } from "./isInValuePreview.js";
import { parseInputs } from "./parseInputs.js";
import { parseOutputNames } from "./parseOutputNames.js";
import { parseSpellId } from "./parseSpellId.js";
import { rememberedResults } from "../addin/rememberedResults.js";
import { shapeOutputs } from "./shapeOutputs.js";
import { sharedClientWithSettings } from "../addin/sharedClient.js";
import { toExcelError, type ErrorContext } from "./toExcelError.js";

/**
 * What `SPELL.RUN` shows in the formula value preview when nothing is remembered for the call:
 * the preview never starts a run (each run may cost money).
 *
 * ## Example
 * ```ts
 * expect(await runSpell("echo", '{"a":1}', null, { isInValuePreview: true })).toEqual([[RUN_PREVIEW_TEXT]]);
 * ```
 */
export const RUN_PREVIEW_TEXT = "SPELL.RUN runs when you press Enter";

/**
 * `=SPELL.RUN(spell_id, inputs, [output])`: runs a spell on the runtime's shared client and returns
 * its outputs as one row.
 *
 * Money rules: the formula value preview starts nothing (it shows a remembered result, or
 * `RUN_PREVIEW_TEXT`); identical calls share one run in flight; a success is remembered across
 * reloads; the client-wide in-flight limit queues the rest. While the run is going the promise is
 * simply pending (Excel shows `#BUSY!`). When Excel cancels the call, the subscription ends (a run
 * shared with other cells goes on for them; a queued run is never started).
 *
 * ## Example
 * ```ts
 * const row = await runSpell("summarize", [["text"], ["A long text"]], "summary", invocation);
 * ```
 *
 * @param spellIdArgument The spell ID.
 * @param inputsArgument JSON object text, SPELL.INPUTS text, or a two-row / two-column range.
 * @param outputArgument Output name(s): text (comma-separated) or a range; `null` for all.
 * @param invocation Excel's invocation (`onCanceled` is set here; `isInValuePreview` is read).
 * @return One row of output values.
 * @throws An Excel error (`#VALUE!` or `#N/A`) with a message.
 */
export async function runSpell(
  spellIdArgument: unknown,
  inputsArgument: unknown,
  outputArgument: unknown,
  invocation?: CustomFunctions.CancelableInvocation
): Promise<unknown[][]> {
  // Set before anything asynchronous, so a cancel at any moment is seen.
  const cancel = new AbortController();
  if (invocation) invocation.onCanceled = () => cancel.abort(cancelledError());

  const spellId = parseSpellId(spellIdArgument);
  const inputs = parseInputs(inputsArgument);
  const names = parseOutputNames(outputArgument);
  if (isInValuePreview(invocation)) return previewRow(spellId, inputs, names);

  let context: ErrorContext = { spellId };
  try {
    const { client, settings } = await sharedClientWithSettings();
    context = { spellId, baseUrl: settings.baseUrl, apiKey: settings.apiKey };
    // Polling mode: spells may run longer than a wait-mode request should stay open, and short
    // polls do not hold one of the browser's six connections per host for the whole run.
    const outputs = await client.runOutputs(spellId, inputs, {
      wait: false,
      signal: cancel.signal,
    });
    return shapeOutputs(outputs, names);
  } catch (error) {
    throw toExcelError(error, context);
  }
}

/** The preview: a remembered result costs nothing to show; anything else waits for Enter. */
async function previewRow(
  spellId: string,
  inputs: Record<string, unknown>,
  names: string[] | undefined
): Promise<unknown[][]> {
  let remembered: Record<string, unknown> | undefined;
  try {
    const { client } = await sharedClientWithSettings();
    remembered = await rememberedResults().get(client.reuseKey(spellId, inputs));
  } catch {
    remembered = undefined;
  }
  return remembered ? shapeOutputs(remembered, names) : [[RUN_PREVIEW_TEXT]];
}

function cancelledError(): CustomFunctions.Error {
  return excelError("#N/A", "Cancelled by Excel.");
}
