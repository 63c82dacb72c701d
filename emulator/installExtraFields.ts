import type { FastifyInstance } from "fastify";
import type { FaultInjector } from "./faults.js";

/**
 * The extraFields fault: adds fields the interface document does not show to every response
 * body (errors included, control API excluded), so clients prove they ignore unknown fields.
 *
 * @example
 * ```ts
 * installExtraFields(baseApp, faults);
 * // { "runId": "run_1_ab", "_emulator": { "requestId": "req-1", "servedAt": "…" }, "apiVersion": "emulator-1" }
 * ```
 */
export function installExtraFields(app: FastifyInstance, faults: FaultInjector): void {
  app.addHook("preSerialization", async (request, _reply, payload: unknown) => {
    if (faults.options.extraFields !== true) return payload;
    if (request.url.startsWith("/_emulator/")) return payload;
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return payload;
    return {
      ...payload,
      _emulator: { requestId: request.id, servedAt: new Date().toISOString() },
      apiVersion: "emulator-1",
    };
  });
}
