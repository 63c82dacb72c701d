import type { FastifyRequest } from "fastify";
import { EmulatorError } from "../emulatorError.js";

/**
 * Whether a value is a plain JSON object (not null, not an array).
 *
 * @example
 * ```ts
 * isJsonObject({ text: "hi" }); // true
 * isJsonObject([1]); // false
 * ```
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The parsed JSON body of a request, which must be an object; otherwise a 400.
 *
 * @example
 * ```ts
 * const body = requestBody(request); // throws 400 invalid_body for `[1, 2]`
 * ```
 */
export function requestBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body ?? {};
  if (!isJsonObject(body)) {
    throw new EmulatorError(400, "invalid_body", "The request body must be a JSON object");
  }
  return body;
}

/**
 * A required non-empty string field of a body; otherwise a 400 `missing_<field>`.
 *
 * @example
 * ```ts
 * const spellId = requiredString(body, "spellId");
 * ```
 */
export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value === "") {
    const code = `missing_${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
    throw new EmulatorError(400, code, `"${field}" is required and must be a non-empty string`);
  }
  return value;
}
