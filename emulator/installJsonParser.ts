import type { FastifyInstance } from "fastify";

/**
 * Parses JSON bodies with fastify's own safe parser (prototype poisoning is an error), except
 * that an empty body is no body: browsers and clients send `Content-Type: application/json` on
 * a body-less GET getRun or control call, and that must not be a 400. JSON is the only body
 * type: fastify's text/plain parser is removed, so a body sent as text (curl without `-H`, a
 * fetch without headers) gets the 415 that says to send `Content-Type: application/json`.
 *
 * @example
 * ```ts
 * installJsonParser(pollApp);
 * ```
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
