import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import type { BulkGroup } from "../runStore.js";
import { requestBody, requiredString } from "./requestBody.js";
import type { FastifyRequest } from "fastify";

/**
 * The group named by the `groupId` of the request body, or a 400 / 404 `group_not_found`.
 *
 * @example
 * ```ts
 * const group = findGroup(context, request);
 * ```
 */
export function findGroup(context: EmulatorContext, request: FastifyRequest): BulkGroup {
  const groupId = requiredString(requestBody(request), "groupId");
  const group = context.store.getGroup(groupId);
  if (!group) throw new EmulatorError(404, "group_not_found", `Unknown groupId "${groupId}"`);
  return group;
}
