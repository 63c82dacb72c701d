import type { FastifyInstance } from "fastify";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import { answerAfterWork, dropConnection, endpointHooks } from "./endpointHooks.js";
import { findSpell } from "./findSpell.js";
import { parseWait } from "./parseWait.js";
import { isJsonObject, requestBody, requiredString } from "./requestBody.js";
import { waitForRun } from "./waitForRun.js";

/**
 * `POST /spells/start` `{ spellId, wait, inputs }`. Polling mode answers `{ runId }` at once;
 * wait mode holds the connection and answers `{ outputs }` (success) or
 * `{ state, outputs }` (failure / error), or 504 after the wait time-out.
 *
 * @example
 * ```ts
 * registerStartRoute(baseApp, context);
 * ```
 */
export function registerStartRoute(app: FastifyInstance, context: EmulatorContext): void {
  app.post("/spells/start", endpointHooks(context, "start"), async (request, reply) => {
    const body = requestBody(request);
    const spell = findSpell(context, requiredString(body, "spellId"));
    const wait = parseWait(body.wait);
    if (!isJsonObject(body.inputs)) {
      throw new EmulatorError(400, "invalid_inputs", '"inputs" must be a JSON object');
    }
    const inputs = body.inputs;
    const run = context.store.createRun(spell, inputs, context.newRunId());
    const stats = context.stats;
    stats.runsCreated++;
    const key = JSON.stringify([spell.id, inputs]);
    stats.createdByKey[key] = (stats.createdByKey[key] ?? 0) + 1;
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
    stats.peakSingleInFlight = Math.max(stats.peakSingleInFlight, stats.singleInFlight);

    if (context.dropAfterWork.has(request)) return dropConnection(request, reply);
    answerAfterWork(context, request);
    if (!wait) return { runId: run.runId };
    await waitForRun(context, run, reply.raw);
    const { state, outputs } = run.outcome;
    return state === "success" ? { outputs } : { state, outputs };
  });
}
