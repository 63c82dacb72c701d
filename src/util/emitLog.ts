import type { SpellLogEvent, SpellLogger } from "../SpellLogEvent.js";

/**
 * Hands one event to the user's logger, if any. A logger that throws is ignored: logging must
 * never change what a run does (a failed log line must not fail a paid run).
 *
 * ## Example
 * ```ts
 * emitLog(options.logger, { type: "cancel", method: "POST", endpoint: "cancelBulk", url, groupId });
 * ```
 * @internal
 */
export function emitLog(logger: SpellLogger | undefined, event: SpellLogEvent): void {
  if (!logger) return;
  try {
    logger(event);
  } catch {
    // Deliberately ignored, see above.
  }
}

/**
 * An error as log events name it: `SpellHttpError: POST /spells/start failed with HTTP 503`.
 * The errors' messages never hold the key.
 *
 * ## Example
 * ```ts
 * errorText(new SpellError("boom")); // "SpellError: boom"
 * ```
 * @internal
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
