import type { Endpoint, HttpMethod } from "../types.js";

/**
 * The request an error is about: method, endpoint and the URL requested (host, path and query;
 * never a header or the key).
 *
 * ## Example
 * ```ts
 * const target: RequestTarget = { method: "GET", endpoint: "getRun", url: "https://poll/spells/getRun?runId=7" };
 * ```
 * @internal
 */
export interface RequestTarget {
  method: HttpMethod;
  endpoint: Endpoint;
  url: string;
}

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
