import { STATUS_CODES } from "node:http";

/**
 * The one JSON shape of every error response of the emulator.
 *
 * @example
 * ```json
 * { "statusCode": 404, "error": "Not Found", "code": "spell_not_found", "message": "Unknown spell \"nope\"" }
 * ```
 */
export interface ErrorBody {
  statusCode: number;
  /** The HTTP reason phrase. */
  error: string;
  /** A stable snake_case code for programs. */
  code: string;
  /** Human text; never contains the API key. */
  message: string;
}

/**
 * Builds an {@link ErrorBody}.
 *
 * @example
 * ```ts
 * errorBody(401, "unauthorized", "Missing or wrong API key");
 * ```
 * @param statusCode HTTP status.
 * @param code snake_case code.
 * @param message Human text.
 */
export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? "Error", code, message };
}
