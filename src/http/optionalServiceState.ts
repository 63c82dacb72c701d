import { serviceStateOf } from "./parseResponses.js";

/**
 * The service's own state word for a poll's log event, when it differs from the run state the
 * core uses; no field at all otherwise.
 *
 * ## Example
 * ```ts
 * const event = { type: "poll", state: toRunState(state), ...optionalServiceState(state) };
 * ```
 * @param state the state as the service wrote it
 * @return `{ serviceState }` or `{}`
 * @internal
 */
export function optionalServiceState(state: string): { serviceState?: string } {
  const serviceState = serviceStateOf(state);
  return serviceState === undefined ? {} : { serviceState };
}
