import type { Endpoint, HttpMethod } from "../types.js";

/**
 * How every error names its request: `POST /spells/start`. The one place that spells it, so the
 * errors agree; it never holds the host, the query (a run id) or a header.
 *
 * ## Example
 * ```ts
 * describeRequest("GET", "getRun"); // "GET /spells/getRun"
 * ```
 * @param method the HTTP method
 * @param endpoint the service endpoint
 * @return the text errors start their message with
 * @internal
 */
export function describeRequest(method: HttpMethod, endpoint: Endpoint): string {
  return `${method} /spells/${endpoint}`;
}
