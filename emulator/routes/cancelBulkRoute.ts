import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../emulatorContext.js";
import { dropConnection, endpointHooks } from "./endpointHooks.js";
import { findGroup } from "./findGroup.js";

/**
 * `POST /spells/cancelBulk` `{ groupId }` → `{ groupId, cancelled }`. Every unfinished run of
 * the group ends at once in state `error` with outputs `{ "error": "Cancelled" }`; finished
 * runs keep their result. Idempotent: a repeat answers 200 with `cancelled: 0`. Works on a
 * lazy group that getBulkRuns does not show yet.
 *
 * @example
 * ```ts
 * registerCancelBulkRoute(baseApp, context);
 * ```
 */
export function registerCancelBulkRoute(app: FastifyInstance, context: EmulatorContext): void {
  app.post("/spells/cancelBulk", endpointHooks(context, "cancelBulk"), async (request, reply) => {
    const group = findGroup(context, request);
    const cancelled = context.store.cancelGroup(group);
    if (cancelled > 0) context.stats.cancelledGroups++;
    if (context.dropAfterWork.has(request)) return dropConnection(request, reply);
    return { groupId: group.groupId, cancelled };
  });
}
