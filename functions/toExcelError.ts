import { gatewayRefusalMessage } from "../addin/organisation/gatewayRefusalMessage.js";
import {
  redactKey,
  SpellHttpError,
  SpellNetworkError,
  SpellProtocolError,
  SpellRunError,
  SpellRunExpiredError,
  SpellTimeoutError,
} from "spellrun";
import { excelError, isExcelError } from "./excelError.js";
import { MissingApiKeyError } from "../addin/MissingApiKeyError.js";
import { ServiceAddressNotSetError } from "../addin/ServiceAddressNotSetError.js";
import { SpendingGuardError } from "../addin/SpendingGuardError.js";

/**
 * What an error message may mention: the spell, the service address, and the key only so that it
 * can be removed from any text that came from elsewhere.
 *
 * ## Example
 * ```ts
 * const context: ErrorContext = { spellId: "summarize", baseUrl, apiKey };
 * ```
 */
export interface ErrorContext {
  spellId?: string;
  baseUrl?: string;
  /** Never shown: any occurrence in a message is replaced by "[redacted]" (see `redactKey`). */
  apiKey?: string;
}

/** Where the user fixes connection settings; every settings-related message says so. */
const WHERE_TO_FIX = "Open Spell Run (Home tab) to check the settings.";

/**
 * Turns anything a custom function caught into the Excel error the cell shows. Only `#VALUE!`
 * (a wrong argument or rejected inputs) and `#N/A` (no result available) carry custom messages
 * in Excel, so every problem maps to one of them with a message saying what happened and what
 * to do. Messages never contain the API key.
 *
 * | Error                                   | Cell      |
 * |-----------------------------------------|-----------|
 * | an Excel error already (bad argument)   | unchanged |
 * | MissingApiKeyError                      | `#N/A`    |
 * | ServiceAddressNotSetError               | `#N/A`    |
 * | SpendingGuardError (waiting, blocked)   | `#N/A`    |
 * | refused by the organisation's gateway    | `#N/A`    |
 * | HTTP 401 / 403 (key rejected)           | `#N/A`    |
 * | HTTP 404 on start / bulkStart (no spell)| `#N/A`    |
 * | HTTP 400 / 413 / 422 (inputs rejected)  | `#VALUE!` |
 * | HTTP 429 after retries                  | `#N/A`    |
 * | other HTTP, SpellProtocolError          | `#N/A`    |
 * | SpellRunError (failure / error)         | `#N/A`    |
 * | SpellRunExpiredError (after a reload)   | `#N/A`    |
 * | SpellNetworkError, SpellTimeoutError    | `#N/A`    |
 *
 * ## Example
 * ```ts
 * try {
 *   return await runOutputs();
 * } catch (error) {
 *   throw toExcelError(error, { spellId, baseUrl: settings.baseUrl, apiKey: settings.apiKey });
 * }
 * ```
 *
 * @param error What was caught.
 * @param context The spell and service, for the message.
 * @return The Excel error value to throw.
 */
export function toExcelError(error: unknown, context: ErrorContext = {}): CustomFunctions.Error {
  if (isExcelError(error)) return error;
  const spell = context.spellId ? `Spell "${context.spellId}"` : "The spell";
  const service = context.baseUrl
    ? `the Spell Run service at ${context.baseUrl}`
    : "the Spell Run service";
  const say = (code: "#VALUE!" | "#N/A", message: string) =>
    excelError(code, redactKey(message, context.apiKey));

  if (
    error instanceof MissingApiKeyError ||
    error instanceof ServiceAddressNotSetError ||
    error instanceof SpendingGuardError ||
    error instanceof SpellRunExpiredError
  )
    return say("#N/A", error.message);
  // The organisation's gateway says what to do in words meant for the user (sign in, a budget).
  const gatewayMessage = gatewayRefusalMessage(error);
  if (gatewayMessage !== undefined) return say("#N/A", gatewayMessage);
  if (error instanceof SpellHttpError) {
    const detail = error.serviceMessage === undefined ? "" : `: ${error.serviceMessage}`;
    switch (true) {
      case error.status === 401 || error.status === 403:
        return say(
          "#N/A",
          `${service} rejected the API key (HTTP ${error.status}). ${WHERE_TO_FIX}`
        );
      // SPELL.RUN calls batched into one bulk meet a mistyped spell id on bulkStart.
      case error.status === 404 && (error.endpoint === "start" || error.endpoint === "bulkStart"):
        return say(
          "#N/A",
          `${spell} was not found (HTTP 404). Check the spell ID on the spell's API tab.`
        );
      case error.status === 404:
        return say(
          "#N/A",
          `The run is no longer known to the service (HTTP 404). Recalculate to run it again.`
        );
      case error.status === 413:
        return say("#VALUE!", `The inputs are too large for the service (HTTP 413).`);
      case error.status === 400 || error.status === 422:
        return say("#VALUE!", `The service rejected the inputs (HTTP ${error.status})${detail}.`);
      case error.status === 429:
        return say(
          "#N/A",
          `The service is rate limiting (HTTP 429), still after retries. Recalculate later.`
        );
      case error.status >= 500:
        return say(
          "#N/A",
          `The service failed (HTTP ${error.status})${detail}. Recalculate to try again.`
        );
      default:
        return say("#N/A", `The service answered HTTP ${error.status}${detail}.`);
    }
  }
  if (error instanceof SpellRunError) {
    const reason = error.reason;
    return say("#N/A", `${spell} ended in ${error.state}${reason ? `: ${reason}` : ""}.`);
  }
  if (error instanceof SpellTimeoutError) {
    return say(
      "#N/A",
      `${spell} took too long; no answer within ${Math.round(error.timeoutMs / 1000)} s.`
    );
  }
  if (error instanceof SpellNetworkError) {
    return say("#N/A", `Could not reach ${service}. Check your connection. ${WHERE_TO_FIX}`);
  }
  if (error instanceof SpellProtocolError) {
    return say("#N/A", `${service} sent an answer spellrun does not understand. ${WHERE_TO_FIX}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return say("#N/A", `Unexpected problem: ${message}`);
}
