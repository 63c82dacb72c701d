import { firstValueFrom } from "rxjs";
import { SpellApi } from "../src/http/SpellApi.js";
import { SpellHttpError } from "../src/index.js";
import type { SpellSettings } from "../addin/settings.js";

/**
 * The plain answer of "Test connection".
 *
 * ## Example
 * ```ts
 * const result: ConnectionCheck = { ok: false, reachable: true, keyAccepted: false, message: "…" };
 * ```
 */
export interface ConnectionCheck {
  ok: boolean;
  /** Both hosts answered over HTTP. */
  reachable: boolean;
  /** The key was accepted (unknown when the service did not answer). */
  keyAccepted: boolean | undefined;
  /** One sentence for the user; never contains the key. */
  message: string;
}

/**
 * Asks both hosts a harmless question with the settings' key: getBulkRuns (base host) and
 * getRun (poll host) of an id that cannot exist. "Not found" (404) means the service answers and
 * took the key; 401/403 means it refused the key; no answer means it is not reachable. Nothing is
 * started, so nothing costs money. Goes through the core's transport, without retries, so the
 * answer comes at once.
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
  let api: SpellApi;
  try {
    api = new SpellApi({ ...settings, fetch: fetchFn, retry: { limit: 0 } });
  } catch (error) {
    return {
      ok: false,
      reachable: false,
      keyAccepted: undefined,
      message: String((error as Error).message),
    };
  }
  const probeId = `spellrun-connection-test-${Math.random().toString(36).slice(2)}`;
  const [base, poll] = await Promise.all([
    probe(() => firstValueFrom(api.getBulkRuns(probeId))),
    probe(() => firstValueFrom(api.getRun(probeId))),
  ]);
  for (const [answer, host, url] of [
    [base, "base URL", settings.baseUrl],
    [poll, "poll base URL", settings.pollBaseUrl],
  ] as const) {
    if (answer.kind === "unreachable") {
      return {
        ok: false,
        reachable: false,
        keyAccepted: undefined,
        message: `The service does not answer at the ${host} (${url}). Check the address and your network.`,
      };
    }
  }
  const refused = [base, poll].find((answer) => answer.kind === "keyRefused");
  if (refused) {
    return {
      ok: false,
      reachable: true,
      keyAccepted: false,
      message: `The service answers, but it refused the API key (HTTP ${refused.status}). Check the key and the auth header form.`,
    };
  }
  const odd = [base, poll].find((answer) => answer.kind === "other");
  if (odd) {
    return {
      ok: false,
      reachable: true,
      keyAccepted: undefined,
      message: `The service answers, but unexpectedly: ${odd.detail}`,
    };
  }
  return {
    ok: true,
    reachable: true,
    keyAccepted: true,
    message: "Connected: the service answers and accepts the key.",
  };
}

type ProbeAnswer =
  | { kind: "accepted" }
  | { kind: "keyRefused"; status: number }
  | { kind: "unreachable" }
  | { kind: "other"; detail: string };

async function probe(ask: () => Promise<unknown>): Promise<ProbeAnswer> {
  try {
    await ask();
    return { kind: "accepted" }; // an answer for a made-up id: odd, but the key was taken
  } catch (error) {
    if (error instanceof SpellHttpError) {
      if (error.status === 404) return { kind: "accepted" };
      if (error.status === 401 || error.status === 403)
        return { kind: "keyRefused", status: error.status };
      return { kind: "other", detail: error.message };
    }
    const name = (error as { name?: string } | null)?.name;
    if (name === "SpellNetworkError" || error instanceof TypeError) return { kind: "unreachable" };
    return { kind: "other", detail: String((error as Error)?.message ?? error) };
  }
}
