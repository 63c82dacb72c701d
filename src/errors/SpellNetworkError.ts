import type { Endpoint, HttpMethod } from "../types.js";
import { describeRequest } from "./describeRequest.js";
import { SpellError } from "./SpellError.js";

/**
 * The request got no HTTP answer (connection refused, reset, dropped, DNS failure...).
 *
 * `connectionRefused` is true only when the cause chain shows the connection was refused, i.e.
 * the request surely never reached the service (Node reports `ECONNREFUSED`; browsers cannot tell,
 * so it is false there).
 *
 * ## Example
 * ```ts
 * if (error instanceof SpellNetworkError) console.warn("offline?", error.message);
 * ```
 */
export class SpellNetworkError extends SpellError {
  static override readonly errorName: string = "SpellNetworkError";

  override name = "SpellNetworkError" as const;

  readonly connectionRefused: boolean;

  constructor(
    readonly method: HttpMethod,
    readonly endpoint: Endpoint,
    cause: unknown,
    /** The URL requested (host, path and query; never a header or the key), when known. */
    readonly url?: string
  ) {
    super(`${describeRequest(method, endpoint)} failed: ${describeCause(cause)}`, { cause });
    this.connectionRefused = hasErrorCode(cause, "ECONNREFUSED");
  }
}

/** Walks `cause` chains and AggregateError lists (Node's fetch nests the socket error there). */
function hasErrorCode(error: unknown, code: string, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 8) return false;
  const candidate = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (candidate.code === code) return true;
  if (Array.isArray(candidate.errors)) {
    if (candidate.errors.some((inner) => hasErrorCode(inner, code, depth + 1))) return true;
  }
  return hasErrorCode(candidate.cause, code, depth + 1);
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return "network error";
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
  return `${cause.message}${inner}`;
}
