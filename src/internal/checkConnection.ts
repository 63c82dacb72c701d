import { firstValueFrom, type Observable } from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellNetworkError } from "../errors/SpellNetworkError.js";
import { SpellTimeoutError } from "../errors/SpellTimeoutError.js";

/**
 * The answer of `SpellClient.checkConnection`: whether both hosts answer and take the key, and
 * one sentence for a user.
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
 * Reads the answers of the two probes (base host, poll host) as one `ConnectionCheck`: "not
 * found" (404) means the host answers and took the key, 401/403 that it refused the key, no
 * answer that it is not reachable. Never rejects.
 *
 * ## Example
 * ```ts
 * const check = await checkConnection(api.probeHosts("made-up-id"), { baseUrl, pollBaseUrl });
 * ```
 * @param probes the two requests, not yet sent
 * @param urls the two addresses, named in the message
 * @return the check
 * @internal
 */
export async function checkConnection(
  probes: { base: Observable<unknown>; poll: Observable<unknown> },
  urls: { baseUrl: string; pollBaseUrl: string }
): Promise<ConnectionCheck> {
  const [base, poll] = await Promise.all([probe(probes.base), probe(probes.poll)]);
  for (const [answer, host, url] of [
    [base, "base URL", urls.baseUrl],
    [poll, "poll base URL", urls.pollBaseUrl],
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

async function probe(question: Observable<unknown>): Promise<ProbeAnswer> {
  try {
    await firstValueFrom(question);
    return { kind: "accepted" }; // an answer for a made-up id: odd, but the key was taken
  } catch (error) {
    if (error instanceof SpellHttpError) {
      if (error.status === 404) return { kind: "accepted" };
      if (error.status === 401 || error.status === 403)
        return { kind: "keyRefused", status: error.status };
      return { kind: "other", detail: error.message };
    }
    if (error instanceof SpellNetworkError || error instanceof SpellTimeoutError) {
      return { kind: "unreachable" };
    }
    return { kind: "other", detail: error instanceof Error ? error.message : String(error) };
  }
}
