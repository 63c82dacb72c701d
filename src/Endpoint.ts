import type { SERVICE_ENDPOINTS } from "./http/serviceEndpoints.js";

/**
 * The service endpoints, by the names the service document uses. Errors and retry rules name them.
 *
 * ## Example
 * ```ts
 * const reads: Endpoint[] = ["getRun", "getBulkRuns"];
 * ```
 */
export type Endpoint = keyof typeof SERVICE_ENDPOINTS;

/**
 * The HTTP methods the service's endpoints use.
 *
 * ## Example
 * ```ts
 * const method: HttpMethod = "GET"; // getRun
 * ```
 */
export type HttpMethod = "GET" | "POST";
