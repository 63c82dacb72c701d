import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { isAuthorized } from "../auth.js";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import { resetEmulatorStats } from "../emulatorStats.js";
import type { FaultOptions } from "../faultOptions.js";
import { isJsonObject, requestBody } from "./requestBody.js";

function faultsOf(value: unknown): FaultOptions {
  if (value === undefined) return {};
  if (!isJsonObject(value)) {
    throw new EmulatorError(400, "invalid_faults", "faults must be a JSON object");
  }
  return value as FaultOptions;
}

/**
 * The control API on the base host, for browser specs (same key, never faulted or counted):
 * `GET /_emulator/stats` → EmulatorStats; `POST /_emulator/reset` `{ faults? }` clears stats,
 * runs and groups and sets the faults (none when omitted); `POST /_emulator/faults`
 * FaultOptions replaces the faults; `POST /_emulator/expire` forgets every run and group now (as
 * if they had expired: 404 after that).
 *
 * @example
 * ```ts
 * registerControlRoutes(baseApp, context);
 * ```
 */
export function registerControlRoutes(app: FastifyInstance, context: EmulatorContext): void {
  const onRequest: onRequestHookHandler = async (request) => {
    if (!isAuthorized(request.headers, context.apiKey)) {
      throw new EmulatorError(401, "unauthorized", "Missing or wrong API key");
    }
  };
  app.get("/_emulator/stats", { onRequest }, async () => context.stats);
  app.post("/_emulator/reset", { onRequest }, async (request) => {
    const faults = faultsOf(requestBody(request).faults);
    context.store.clear();
    context.faults.set(faults);
    resetEmulatorStats(context.stats);
    return { reset: true, faults: context.faults.options };
  });
  app.post("/_emulator/expire", { onRequest }, async () => {
    context.store.clear();
    return { expired: true };
  });
  app.post("/_emulator/faults", { onRequest }, async (request) => {
    context.faults.set(faultsOf(requestBody(request)));
    return { faults: context.faults.options };
  });
}
