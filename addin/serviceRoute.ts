import { FORWARDING_PREFIXES } from "spellrun";

/**
 * How the add-in reaches the Spell service:
 * - `"addinHost"`, through the add-in's host: calls go to `/spell-api` and `/spell-poll` of the
 *   page's own origin, where the add-in server (production) or the dev server (development)
 *   forwards them to the service. Same-origin for the browser, so the service needs no CORS.
 * - `"direct"`: calls go to the Base URL and Poll base URL of Settings; the service must allow
 *   the add-in's origin with CORS.
 *
 * ## Example
 * ```ts
 * const route: ServiceRoute = "addinHost";
 * ```
 */
export type ServiceRoute = "addinHost" | "direct";

/**
 * The paths of the add-in's host that forward to the service (addin-server, dev server): the
 * core's `FORWARDING_PREFIXES`, by the names of Settings' two addresses.
 */
export const ADDIN_HOST_PATHS = Object.freeze({
  baseUrl: FORWARDING_PREFIXES.base,
  pollBaseUrl: FORWARDING_PREFIXES.poll,
});

/**
 * The two addresses the client calls for a route: the add-in host's forwarding paths on the
 * page's origin, or the addresses of Settings. `undefined` addresses when the route is through
 * the add-in's host and there is no page (Node), so callers say the address is not set.
 *
 * ## Example
 * ```ts
 * serviceAddresses({ serviceRoute: "addinHost", baseUrl: "", pollBaseUrl: "" }, "https://addin.example.com");
 * // { baseUrl: "https://addin.example.com/spell-api", pollBaseUrl: "https://addin.example.com/spell-poll" }
 * ```
 *
 * @param settings The route and the addresses of Settings.
 * @param pageOrigin The add-in page's origin (default: `location.origin` where there is one).
 * @return The addresses to call.
 */
export function serviceAddresses(
  settings: { serviceRoute: ServiceRoute; baseUrl: string; pollBaseUrl: string },
  pageOrigin: string | undefined = globalThis.location?.origin
): { baseUrl: string; pollBaseUrl: string } {
  if (settings.serviceRoute === "direct") {
    return { baseUrl: settings.baseUrl, pollBaseUrl: settings.pollBaseUrl };
  }
  // An opaque origin ("null": a file or sandboxed page) has no host to forward through.
  if (!pageOrigin || pageOrigin === "null") return { baseUrl: "", pollBaseUrl: "" };
  return {
    baseUrl: `${pageOrigin}${ADDIN_HOST_PATHS.baseUrl}`,
    pollBaseUrl: `${pageOrigin}${ADDIN_HOST_PATHS.pollBaseUrl}`,
  };
}
