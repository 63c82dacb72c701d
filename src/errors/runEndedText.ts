import type { RunState } from "../types.js";

/**
 * The first words of a `SpellRunError`'s message: `Spell run 42 ended in state "failure"`, with
 * the run id when the service gave one (wait mode and polling mode alike) and the service's own
 * word for the state when it differs (`("cancelled")`).
 *
 * ## Example
 * ```ts
 * runEndedText("error", "run-1", "cancelled"); // 'Spell run run-1 ended in state "error" ("cancelled")'
 * ```
 * @param state the state
 * @param runId the run id, if known
 * @param serviceState the service's word for the state, if it has its own
 * @return the text
 * @internal
 */
export function runEndedText(
  state: RunState,
  runId?: string | number,
  serviceState?: string
): string {
  return (
    `Spell run${runId === undefined ? "" : ` ${String(runId)}`} ended in state "${state}"` +
    (serviceState === undefined ? "" : ` ("${serviceState}")`)
  );
}
