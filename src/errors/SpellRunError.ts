import type { RunState } from "../types.js";
import { failureReason } from "../failureReason.js";
import { SpellError } from "./SpellError.js";

/**
 * The run finished, but not in `success` (or a wait-mode answer had no outputs).
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
  override name = "SpellRunError" as const;

  constructor(
    readonly state: RunState,
    readonly outputs: Record<string, unknown>,
    readonly runId?: string | number,
    detail?: string
  ) {
    super(
      detail ??
        `Spell run${runId === undefined ? "" : ` ${String(runId)}`} ended in state "${state}"`
    );
  }

  /** The explanation in the outputs, if the spell gave one (see `failureReason`). */
  get reason(): string | undefined {
    return failureReason(this.outputs);
  }
}
