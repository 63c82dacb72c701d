import type { Endpoint } from "../types.js";
import type { SpellLogRequest } from "../SpellLogEvent.js";

/**
 * The id a start (`runId`) or bulkStart (`runId`, the group id) answer names, for the log;
 * `undefined` for the other endpoints, whose answers name no new id.
 *
 * ## Example
 * ```ts
 * idsInAnswer("start")?.({ runId: 7 }); // { runId: 7 }
 * ```
 * @param endpoint the endpoint answering
 * @return reads the ids from an answer's body
 * @internal
 */
export function idsInAnswer(
  endpoint: Endpoint
): ((body: unknown) => Partial<SpellLogRequest>) | undefined {
  if (endpoint !== "start" && endpoint !== "bulkStart") return undefined;
  return (body) => {
    const id = (body as { runId?: unknown } | null | undefined)?.runId;
    if (typeof id !== "string" && typeof id !== "number") return {};
    return endpoint === "start" ? { runId: id } : { groupId: String(id) };
  };
}
