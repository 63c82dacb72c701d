import { SpellHttpError } from "spellrun";

/**
 * The `code`s of the add-in server's organisation mode (its JSON answers): the user must sign in
 * again, the organisation's budgets or kill switch refused the runs, or the service refused the
 * organisation's key (the administrator must act).
 */
const GATEWAY_CODES = new Set([
  "sign_in_required",
  "token_expired",
  "token_invalid",
  "budget_exhausted",
  "organisation_paused",
  "request_key_reused",
  "already_started",
  "not_chargeable",
  "organisation_key_refused",
]);

/**
 * The message to show, as it is, when the organisation's gateway refused a call: "Your sign-in
 * has expired: sign in again.", "Your daily limit of 200 runs is reached; resets at …". Else
 * undefined (the usual message of the error applies; a 401 or 403 then means the key).
 *
 * ## Example
 * ```ts
 * const cellMessage = gatewayRefusalMessage(error) ?? defaultMessage(error);
 * ```
 *
 * @param error What a call failed with.
 * @return The gateway's message, or undefined.
 */
export function gatewayRefusalMessage(error: unknown): string | undefined {
  if (!(error instanceof SpellHttpError)) return undefined;
  const code = (error.body as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" && GATEWAY_CODES.has(code) ? error.serviceMessage : undefined;
}
