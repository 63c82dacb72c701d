import {
  SpellHttpError,
  SpellNetworkError,
  SpellRequestTooLargeError,
  SpellTimeoutError,
} from "spellrun";
import { commandAsRun } from "../commands/commandAsRun.js";

/**
 * The message for a service failure, with what to do when nothing answered: where the command
 * tried (the address, never a header) and how to start the local emulator or name the service.
 * A bare "fetch failed" after seconds of retries leaves a new user guessing.
 *
 * ## Example
 * ```ts
 * process.stderr.write(`spellrun: ${describeServiceError(error)}\n`);
 * ```
 *
 * @param error What the run or bulk failed with.
 * @return One or more lines, without the leading "spellrun: " of the first.
 */
export function describeServiceError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // A body too large is the request's fault, never a service that is down.
  if (
    error instanceof SpellRequestTooLargeError ||
    (error instanceof SpellHttpError && error.status === 413)
  ) {
    return [
      message,
      `spellrun: the request was too large for the service: lower --max-body-bytes (bulk runs are split to stay below it) or --chunk-size; resume and retry take both for the rows not sent yet`,
    ].join("\n");
  }
  if (!(error instanceof SpellNetworkError) && !(error instanceof SpellTimeoutError))
    return message;
  const where = error.url ? new URL(error.url).origin : "the service address";
  return [
    message,
    `spellrun: nothing answered at ${where}. Is the Spell service running there?`,
    `spellrun: to try spellrun locally, start the emulator in a clone of spellrun (npm run emulator), then: ${commandAsRun()} … --base-url http://127.0.0.1:3001 --poll-base-url http://127.0.0.1:3002 (or SPELL_BASE_URL / SPELL_POLL_BASE_URL)`,
  ].join("\n");
}
