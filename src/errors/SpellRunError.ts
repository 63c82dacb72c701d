import type { RunState } from "../types.js";
import { failureReason } from "../failureReason.js";
import { SpellError } from "./SpellError.js";
import { runEndedText } from "./runEndedText.js";

/** Longest reason the message quotes; `reason` keeps the whole text. */
const MAX_REASON_IN_MESSAGE = 300;

/**
 * The run finished, but not in `success` (or a wait-mode answer had no outputs). The message
 * names the state and, when the spell gave one, its reason (see `failureReason`; the first 300
 * characters, `reason` has all of it).
 *
 * ## Example
 * ```ts
 * client.run("always-fails", {}).subscribe({
 *   error: (error) => {
 *     if (error instanceof SpellRunError) console.log(error.state, error.outputs);
 *   },
 * });
 * ```
 */
export class SpellRunError extends SpellError {
  static override readonly errorName: string = "SpellRunError";

  override name = "SpellRunError" as const;

  constructor(
    readonly state: RunState,
    readonly outputs: Record<string, unknown>,
    readonly runId?: string | number,
    detail?: string
  ) {
    const reason = failureReason(outputs);
    super(
      (detail ?? runEndedText(state, runId)) +
        (reason === undefined ? "" : `: ${shortened(reason)}`)
    );
  }

  /** The explanation in the outputs, if the spell gave one (see `failureReason`). */
  get reason(): string | undefined {
    return failureReason(this.outputs);
  }
}

function shortened(reason: string): string {
  return reason.length <= MAX_REASON_IN_MESSAGE
    ? reason
    : `${reason.slice(0, MAX_REASON_IN_MESSAGE - 1)}…`;
}
