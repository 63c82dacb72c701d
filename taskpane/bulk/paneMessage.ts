import { SpellCodeLoadError } from "spellrun";
import { gatewayRefusalMessage } from "../../addin/organisation/gatewayRefusalMessage.js";
import { MissingApiKeyError } from "../../addin/MissingApiKeyError.js";
import { ServiceAddressNotSetError } from "../../addin/ServiceAddressNotSetError.js";

/**
 * An error as the task pane says it. The shared errors point cells to "Spell Run (Home tab)",
 * which is this pane: here they point to its Settings tab instead.
 *
 * ## Example
 * ```ts
 * paneMessage(new MissingApiKeyError()); // "No Spell Run API key is set: enter it in the Settings tab above."
 * ```
 */
export function paneMessage(error: unknown): string {
  if (error instanceof MissingApiKeyError) {
    return "No Spell Run API key is set: enter it in the Settings tab above.";
  }
  if (error instanceof ServiceAddressNotSetError) {
    const labels = error.settings.map((setting) =>
      setting === "baseUrl" ? "Base URL" : "Poll base URL"
    );
    return `The Spell Run service address is not set (${labels.join(", ")}): enter it in the Settings tab above.`;
  }
  if (error instanceof SpellCodeLoadError) {
    // Not "may have started": the code that sends the start never arrived (a network blip).
    return "Nothing was sent: the add-in's code failed to load. Check the connection and press Run again.";
  }
  // The organisation's gateway: "sign in again", or which budget is spent and when it resets.
  const gatewayMessage = gatewayRefusalMessage(error);
  if (gatewayMessage !== undefined) return gatewayMessage;
  return error instanceof Error ? error.message : String(error);
}
