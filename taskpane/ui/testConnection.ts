import { SpellClient, type ConnectionCheck } from "../../src";
import type { SpellSettings } from "../../addin/settings.js";

export type { ConnectionCheck };

/**
 * "Test connection" for the settings being edited: the core's `SpellClient.checkConnection`
 * (both hosts asked about an id that cannot exist, nothing started, no retries) with a client
 * built from these settings. A missing key or a refused address is answered without a request.
 *
 * ## Example
 * ```ts
 * const check = await testConnection(await loadSettings());
 * statusElement.textContent = check.message;
 * ```
 */
export async function testConnection(
  settings: Pick<SpellSettings, "apiKey" | "baseUrl" | "pollBaseUrl" | "authHeader">,
  fetchFn?: typeof fetch
): Promise<ConnectionCheck> {
  if (!settings.apiKey) {
    return { ok: false, reachable: false, keyAccepted: false, message: "Enter an API key first." };
  }
  let client: SpellClient;
  try {
    client = new SpellClient({ ...settings, fetch: fetchFn, retry: { limit: 0 } });
  } catch (error) {
    return {
      ok: false,
      reachable: false,
      keyAccepted: undefined,
      message: String((error as Error).message),
    };
  }
  return client.checkConnection();
}
