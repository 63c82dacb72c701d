import type { FastifyInstance } from "fastify";

/**
 * Parses JSON bodies into objects without a prototype (`Object.create(null)`), so a key named
 * `__proto__` or `constructor` is data like any other (an input column of that name, a spell
 * input): no 400, and no later assignment can reach `Object.prototype` through it. An empty body
 * is no body: browsers and clients send `Content-Type: application/json` on a body-less GET
 * getRun or control call, and that must not be a 400. JSON is the only body type: fastify's
 * text/plain parser is removed, so a body sent as text (curl without `-H`, a fetch without
 * headers) gets the 415 that says to send `Content-Type: application/json`.
 *
 * @example
 * ```ts
 * installJsonParser(pollApp);
 * ```
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = body.toString();
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseJsonSafely(text));
    } catch (error) {
      // A SyntaxError: said as the 400 `invalid_json` (see installErrorHandlers).
      done(Object.assign(error as Error, { statusCode: 400 }), undefined);
    }
  });
}

/**
 * `JSON.parse` with every object rebuilt without a prototype: its keys, `__proto__` included,
 * are own data properties of an object that inherits nothing.
 *
 * @example
 * ```ts
 * parseJsonSafely('{"__proto__":"x"}'); // { __proto__: "x" } as an own key; {}.x stays undefined
 * ```
 * @param text the JSON text
 * @return the value
 * @throws SyntaxError for text that is not JSON
 */
export function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const safe = Object.create(null) as Record<string, unknown>;
    // On an object without a prototype, `__proto__` is no setter: an own property is made.
    for (const [key, item] of Object.entries(value)) safe[key] = item;
    return safe;
  });
}
