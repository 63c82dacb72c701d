/**
 * The Excel custom functions of spellrun, namespace SPELL (from the manifest): SPELL.RUN,
 * SPELL.INPUTS and SPELL.BULK.
 *
 * custom-functions-metadata-plugin reads the `@customfunction` JSDoc in this one file to write
 * functions.json, and its loader appends `CustomFunctions.associate("ID", fn)` for each function
 * to the bundle, as in Microsoft's templates; so this file registers nothing itself and can be
 * imported anywhere (specs, benchmarks). The work happens in small modules; these are the
 * declarations Excel sees (parameter names and descriptions show in Excel's formula help).
 *
 * Parameter types are what the metadata is generated from: `unknown[][]` makes a parameter a
 * matrix, so a range arrives whole. Excel passes `null` for an omitted optional argument.
 *
 * SPELL.RUN is `@cancelable`; SPELL.BULK is streaming (its `StreamingInvocation` parameter makes it
 * so) and not `@cancelable`: Microsoft's metadata reference says a function cannot use both, and a
 * streaming invocation is cancelable anyway, through the same `onCanceled` (bulkSpell cancels the
 * bulk run there). SPELL.BULK's module is loaded on its first call (`lazyBulkSpell`), so that
 * functions.js, which Excel loads at start, carries what SPELL.RUN and SPELL.INPUTS need.
 */
import { buildInputs } from "./buildInputs.js";
import { lazyBulkSpell } from "./lazyBulkSpell.js";
import { runSpell } from "./runSpell.js";

/**
 * Runs a spell and returns its outputs (one output, or several in one row).
 * @customfunction RUN RUN
 * @requiresAddress
 * @param spell_id The spell's ID, from its URL or API tab.
 * @param inputs JSON text, SPELL.INPUTS(...), or a range: names over values, or names beside values.
 * @param [output] Output name(s) to return: text (comma-separated) or a range. Default: all outputs.
 * @param invocation Supplied by Excel.
 * @returns The outputs, in one row.
 * @example =SPELL.RUN("translate", SPELL.INPUTS("text", A2, "language", "fr"), "translation")
 */
export function spellRun(
  spell_id: string,
  inputs: unknown[][],
  output: unknown[][],
  invocation: CustomFunctions.CancelableInvocation
): Promise<unknown[][]> {
  return runSpell(spell_id, inputs, output, invocation);
}

/**
 * Builds the inputs of SPELL.RUN from pairs of a name and a value.
 * @customfunction INPUTS INPUTS
 * @param name_value An input name, then its value (a cell or a range); repeat for more inputs.
 * @returns JSON text of the inputs, for SPELL.RUN.
 * @example =SPELL.INPUTS("text", A2, "language", B2)
 */
export function spellInputs(name_value: unknown[][][]): string {
  return buildInputs(name_value);
}

/**
 * Runs a spell once per table row in one bulk run; the result fills in as runs finish.
 * @customfunction BULK BULK
 * @requiresAddress
 * @param spell_id The spell's ID, from its URL or API tab.
 * @param table Input names in the first row, one run per further row.
 * @param [outputs] Output name(s) to show: text (comma-separated) or a range. Default: all outputs.
 * @param invocation Supplied by Excel.
 * @example =SPELL.BULK("sentiment", A1:A101, "label, score")
 */
export function spellBulk(
  spell_id: string,
  table: unknown[][],
  outputs: unknown[][],
  invocation: CustomFunctions.StreamingInvocation<unknown[][]>
): void {
  void lazyBulkSpell(spell_id, table, outputs, invocation);
}
