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
 * Where a request that this host does not serve should go instead: the endpoints served by the
 * other host, and that host's URL (known once it listens).
 *
 * @example
 * ```ts
 * const otherHost: OtherHost = { name: "poll host", paths: ["/spells/getRun"], url: () => pollBaseUrl };
 * ```
 */
export interface OtherHost {
  name: string;
  paths: readonly string[];
  url: () => string;
}

/**
 * Makes every error of an app, fastify's own included (400 malformed JSON, 404 no route,
 * 413, 415), answer with the one error shape `{ statusCode, error, code, message }`. A 415 says
 * which Content-Type to send; a path served by the other host says which host that is.
 *
 * @example
 * ```ts
 * installErrorHandlers(baseApp);
 * ```
 */
export function installErrorHandlers(app: FastifyInstance, otherHost?: OtherHost): void {
  app.setErrorHandler<FastifyError | EmulatorError>(async (error, request, reply) => {
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
    const message =
      code === "unsupported_media_type"
        ? `Unsupported Content-Type "${request.headers["content-type"] ?? ""}": send the body ` +
          `as JSON with the header "Content-Type: application/json"`
        : error.message;
    return errorBody(statusCode, code, message);
  });
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404);
    const path = request.url.split("?")[0];
    if (otherHost?.paths.includes(path)) {
      return errorBody(
        404,
        "wrong_host",
        `${path} is served by the ${otherHost.name}: ${otherHost.url()}${path}`
      );
    }
    return errorBody(404, "route_not_found", `No route ${request.method} ${path}`);
  });
}
