import type { Observable } from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellNetworkError } from "../errors/SpellNetworkError.js";
import { SpellProtocolError } from "../errors/SpellProtocolError.js";
import { SpellTimeoutError } from "../errors/SpellTimeoutError.js";
import type { ConnectionCheck } from "../ConnectionCheck.js";
import { lastSnapshot } from "../util/lastSnapshot.js";

/**
 * Reads the answers of the two probes (base host, poll host) as one `ConnectionCheck`: a 404 in
 * the service's JSON means the host answers and took the key, 401/403 that it refused the key,
 * a web page or a non-JSON answer that the address is not the Spell API; for a host that gave no
 * readable answer, `answersWithoutCors` tells a browser's CORS refusal from no answer at all.
 * Never rejects.
 *
 * ## Example
 * ```ts
 * const check = await checkConnection(api.probeHosts(id), urls, (host) => api.answersWithoutCorsConsent(host, id));
 * ```
 * @param probes the two requests, not yet sent
 * @param urls the two addresses, named in the message
 * @param answersWithoutCors whether a host answers a keyless no-cors request (browser only)
 * @return the check
 * @internal
 */
export async function checkConnection(
  probes: { base: Observable<unknown>; poll: Observable<unknown> },
  urls: { baseUrl: string; pollBaseUrl: string },
  answersWithoutCors: (host: "base" | "poll") => Promise<boolean> = async () => false
): Promise<ConnectionCheck> {
  const [base, poll] = await Promise.all([probe(probes.base), probe(probes.poll)]);
  for (const [answer, host, label, url] of [
    [base, "base", "base URL", urls.baseUrl],
    [poll, "poll", "poll base URL", urls.pollBaseUrl],
  ] as const) {
    if (answer.kind !== "unreachable") continue;
    if (await answersWithoutCors(host)) {
      return {
        ok: false,
        reachable: false,
        keyAccepted: undefined,
        problem: "corsRefused",
        message: `The service at the ${label} (${url}) answers, but the browser refused to hand its answer to the add-in: the service does not allow this add-in's address (CORS). Choose "Through the add-in's host" in Settings (its server forwards the calls), or ask the service's owners to allow ${pageOrigin() ?? "the add-in's address"}.`,
      };
    }
    return {
      ok: false,
      reachable: false,
      keyAccepted: undefined,
      problem: "noAnswer",
      message: `The service does not answer at the ${label} (${url}). Check the address and your network (VPN, proxy), and that the service is running.`,
    };
  }
  const refused = [base, poll].find((answer) => answer.kind === "keyRefused");
  if (refused) {
    return {
      ok: false,
      reachable: true,
      keyAccepted: false,
      problem: "wrongKey",
      message: `The service answers, but it refused the API key (HTTP ${refused.status}). Check the key and the auth header form (Authorization: Bearer or x-api-key).`,
    };
  }
  for (const [answer, label, url] of [
    [base, "base URL", urls.baseUrl],
    [poll, "poll base URL", urls.pollBaseUrl],
  ] as const) {
    if (answer.kind !== "notTheApi") continue;
    return {
      ok: false,
      reachable: true,
      keyAccepted: undefined,
      problem: "wrongAddress",
      message: `Something answers at the ${label} (${url}), but it is not the Spell Run API (${answer.detail}). Check the address: it is the part before /spells/… of the service's URLs.`,
    };
  }
  const odd = [base, poll].find((answer) => answer.kind === "other");
  if (odd) {
    return {
      ok: false,
      reachable: true,
      keyAccepted: undefined,
      problem: "unexpected",
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
  | { kind: "notTheApi"; detail: string }
  | { kind: "other"; detail: string };

async function probe(question: Observable<unknown>): Promise<ProbeAnswer> {
  try {
    // lastSnapshot rather than firstValueFrom: the client loads it anyway (a probe answers once).
    await lastSnapshot(question, undefined);
    return { kind: "accepted" }; // an answer for a made-up id: odd, but the key was taken
  } catch (error) {
    if (error instanceof SpellHttpError) {
      // The service's "no such run or group" is JSON; a web server's missing page is not.
      if (error.status === 404 && isJsonObject(error.body)) return { kind: "accepted" };
      if (error.status === 401 || error.status === 403)
        return { kind: "keyRefused", status: error.status };
      if (error.status === 404 || error.status === 405 || error.status === 501) {
        return { kind: "notTheApi", detail: `HTTP ${error.status} without the service's answer` };
      }
      return { kind: "other", detail: error.message };
    }
    if (error instanceof SpellProtocolError) {
      return { kind: "notTheApi", detail: "its answer is not the service's JSON" };
    }
    if (error instanceof SpellNetworkError || error instanceof SpellTimeoutError) {
      return { kind: "unreachable" };
    }
    return { kind: "other", detail: error instanceof Error ? error.message : String(error) };
  }
}

function isJsonObject(body: unknown): boolean {
  return body !== null && typeof body === "object";
}

/** The page's origin in a browser, to name in the CORS advice. */
function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== "null" ? origin : undefined;
}
