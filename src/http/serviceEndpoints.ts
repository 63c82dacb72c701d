import type { Endpoint, HttpMethod } from "../Endpoint.js";

/**
 * The Spell Run service's endpoints: the method of each and which of the two hosts answers it
 * (`base`: the Base URL; `poll`: the Poll base URL). The one list behind the core's client
 * (`SpellApi`), the add-in host's forwarding (addin-server, the dev server's proxy in
 * webpack.config.js) and the add-in's route (addin/serviceRoute.ts).
 *
 * This file imports only a type (erased), so the add-in server and the build (CommonJS) load it as
 * it is.
 *
 * ## Example
 * ```ts
 * SERVICE_ENDPOINTS.getRun; // { method: "GET", host: "poll" }
 * ```
 */
export const SERVICE_ENDPOINTS = Object.freeze({
  start: Object.freeze({ method: "POST", host: "base" }),
  bulkStart: Object.freeze({ method: "POST", host: "base" }),
  cancelBulk: Object.freeze({ method: "POST", host: "base" }),
  getBulkRuns: Object.freeze({ method: "POST", host: "base" }),
  getRun: Object.freeze({ method: "GET", host: "poll" }),
} as const satisfies Record<Endpoint, { method: HttpMethod; host: "base" | "poll" }>);

/**
 * The paths of the add-in's own origin that forward to the service's two hosts ("through the
 * add-in's host"): `/spell-api/spells/start` goes to `<Base URL>/spells/start`,
 * `/spell-poll/spells/getRun` to `<Poll base URL>/spells/getRun`.
 *
 * ## Example
 * ```ts
 * `${FORWARDING_PREFIXES.poll}${endpointPath("getRun")}`; // "/spell-poll/spells/getRun"
 * ```
 */
export const FORWARDING_PREFIXES = Object.freeze({
  base: "/spell-api",
  poll: "/spell-poll",
} as const);

/**
 * The path of an endpoint below its host's address (the service document's `/spells/<name>`).
 *
 * ## Example
 * ```ts
 * endpointPath("bulkStart"); // "/spells/bulkStart"
 * ```
 *
 * @param endpoint The endpoint's name.
 * @return Its path.
 */
export function endpointPath<E extends keyof typeof SERVICE_ENDPOINTS>(
  endpoint: E
): `/spells/${E}` {
  return `/spells/${endpoint}`;
}
