import type { FastifyInstance } from "fastify";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import { answerAfterWork, dropConnection, endpointHooks } from "./endpointHooks.js";
import { findSpell } from "./findSpell.js";
import { isJsonObject, requestBody, requiredString } from "./requestBody.js";

/**
 * `POST /spells/bulkStart` `{ spellId, inputs: [...] }` → `{ runId: <groupId> }` at once.
 * Runs progress `bulkConcurrency` at a time; with the lazyBulk fault they become visible
 * progressively through getBulkRuns.
 *
 * @example
 * ```ts
 * registerBulkStartRoute(baseApp, context);
 * ```
 */
export function registerBulkStartRoute(app: FastifyInstance, context: EmulatorContext): void {
  app.post("/spells/bulkStart", endpointHooks(context, "bulkStart"), async (request, reply) => {
    const body = requestBody(request);
    const spell = findSpell(context, requiredString(body, "spellId"));
    const inputsList = body.inputs;
    if (!Array.isArray(inputsList) || !inputsList.every(isJsonObject)) {
      throw new EmulatorError(400, "invalid_inputs", '"inputs" must be an array of JSON objects');
    }
    const lazy = context.faults.lazyBulk(inputsList.length);
    const group = context.store.createGroup(spell, inputsList, context.newGroupId(), lazy);
    const stats = context.stats;
    stats.bulkGroupsCreated++;
    stats.bulkRunsCreated += inputsList.length;
    if (context.countBulkInputs) {
      for (const inputs of inputsList) {
        const key = JSON.stringify([spell.id, inputs]);
        stats.bulkCreatedByKey[key] = (stats.bulkCreatedByKey[key] ?? 0) + 1;
      }
    }
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);

    if (context.dropAfterWork.has(request)) return dropConnection(request, reply);
    answerAfterWork(context, request);
    return { runId: group.groupId };
  });
}
