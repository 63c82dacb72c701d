import { SpellClient, type ConnectionCheck } from "spellrun";
import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import { explainPolicyBlock } from "../../addin/explainPolicyBlock.js";
import { serviceAddresses } from "../../addin/serviceRoute.js";

export type { ConnectionCheck };

/**
 * "Test connection" for the settings being edited: the core's `SpellClient.checkConnection`
 * (both hosts asked about an id that cannot exist, nothing started, no retries) with a client
 * built from these settings, through the add-in's host or directly as they say. The answer tells
 * apart no answer, an answer the browser refused to hand over (CORS), a refused key and an
 * address that is not the Spell API, and says what to do. A missing key or a refused address is answered without a request.
 *
 * ## Example
 * ```ts
 * const check = await testConnection(await loadSettings());
 * statusElement.textContent = check.message;
 * ```
 */
export async function testConnection(
  settings: Pick<
    SpellSettings,
    "apiKey" | "baseUrl" | "pollBaseUrl" | "authHeader" | "serviceRoute"
  >,
  fetchFn?: typeof fetch
): Promise<ConnectionCheck> {
  if (!settings.apiKey) {
    return { ok: false, reachable: false, keyAccepted: false, message: "Enter an API key first." };
  }
  let client: SpellClient;
  const addresses = serviceAddresses(settings);
  try {
    client = new SpellClient({
      apiKey: settings.apiKey,
      authHeader: settings.authHeader,
      ...addresses,
      fetch: fetchFn,
      retry: { limit: 0 },
    });
  } catch (error) {
    return {
      ok: false,
      reachable: false,
      keyAccepted: undefined,
      message: String((error as Error).message),
    };
  }
  // A call the page's own security policy blocks looks like no answer: say so.
  return explainPolicyBlock(() => client.checkConnection(), addresses);
}
