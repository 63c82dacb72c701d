/**
 * The service endpoints, by the names the service document uses. Errors and retry rules name them.
 * Named here, where nothing is imported, so that the vocabulary of `types.ts` does not reach into
 * the transport (`http/`), which imports it; `SERVICE_ENDPOINTS` must have exactly these keys.
 *
 * ## Example
 * ```ts
 * const reads: Endpoint[] = ["getRun", "getBulkRuns"];
 * ```
 */
export type Endpoint = "start" | "bulkStart" | "cancelBulk" | "getBulkRuns" | "getRun";

/**
 * The HTTP methods the service's endpoints use.
 *
 * ## Example
 * ```ts
 * const method: HttpMethod = "GET"; // getRun
 * ```
 */
export type HttpMethod = "GET" | "POST";
