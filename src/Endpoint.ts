/**
 * The service endpoints, by the names the service document uses. Errors and retry rules name them.
 *
 * ## Example
 * ```ts
 * const reads: Endpoint[] = ["getRun", "getBulkRuns"];
 * ```
 */
export type Endpoint = "start" | "getRun" | "bulkStart" | "cancelBulk" | "getBulkRuns";

/**
 * The HTTP methods the service's endpoints use.
 *
 * ## Example
 * ```ts
 * const method: HttpMethod = "GET"; // getRun
 * ```
 */
export type HttpMethod = "GET" | "POST";
