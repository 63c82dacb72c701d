import type { FastifyError, FastifyInstance } from "fastify";
import { EmulatorError } from "./emulatorError.js";
import { errorBody } from "./errorBody.js";

// fastify's own errors (body parsing, limits) mapped to stable snake_case codes.
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "invalid_json",
  FST_ERR_CTP_EMPTY_JSON_BODY: "empty_body",
  FST_ERR_CTP_BODY_TOO_LARGE: "body_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "invalid_content_length",
};
const STATUS_CODE_NAMES: Record<number, string> = {
  400: "bad_request",
  404: "not_found",
  405: "method_not_allowed",
  413: "body_too_large",
  415: "unsupported_media_type",
};

/**
 * Makes every error of an app, fastify's own included (400 malformed JSON, 404 no route,
 * 413, 415), answer with the one error shape `{ statusCode, error, code, message }`.
 *
 * @example
 * ```ts
 * installErrorHandlers(baseApp);
 * ```
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | EmulatorError>(async (error, _request, reply) => {
    if (error instanceof EmulatorError) {
      reply.code(error.statusCode).headers(error.options.headers ?? {});
      return { ...errorBody(error.statusCode, error.code, error.message), ...error.options.body };
    }
    const statusCode =
      typeof error.statusCode === "number" && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      reply.code(500);
      return errorBody(500, "internal_error", "Unexpected emulator error");
    }
    const code =
      FASTIFY_CODES[error.code] ??
      (error instanceof SyntaxError ? "invalid_json" : STATUS_CODE_NAMES[statusCode]) ??
      "bad_request";
    reply.code(statusCode);
    return errorBody(statusCode, code, error.message);
  });
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404);
    const path = request.url.split("?")[0];
    return errorBody(404, "route_not_found", `No route ${request.method} ${path}`);
  });
}
