/**
 * The reason phrases of `node:http` the emulator's error bodies name, for the playground's
 * in-page emulator (playground/webpack.config.cjs maps the import here in browser builds).
 *
 * @example
 * ```ts
 * STATUS_CODES[404]; // "Not Found"
 * ```
 */
export const STATUS_CODES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  499: "Client Closed Request",
  500: "Internal Server Error",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};
