import type { FastifyInstance } from "fastify";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import { endpointHooks } from "./endpointHooks.js";
import { findGroup } from "./findGroup.js";

/**
 * `POST /spells/getBulkRuns` `{ groupId }` → `{ runs: [{ state, outputs }, ...] }` in input
 * order. With the lazyBulk fault: 404 until the group is visible, then a prefix of the runs
 * that grows by `runsPerPoll` on every call. With extraFields each entry also has `index` and
 * `runId`. With the rateShortBulkRuns fault an answer may leave out its last entry; with
 * rateUnknownState an unfinished run may show the state "queued", which the interface does not name.
 *
 * @example
 * ```ts
 * registerGetBulkRunsRoute(baseApp, context);
 * ```
 */
export function registerGetBulkRunsRoute(app: FastifyInstance, context: EmulatorContext): void {
  app.post("/spells/getBulkRuns", endpointHooks(context, "getBulkRuns"), async (request) => {
    const group = findGroup(context, request);
    const store = context.store;
    const now = store.now();
    if (now < group.visibleAt) {
      throw new EmulatorError(404, "group_not_found", `Unknown groupId "${group.groupId}"`);
    }
    const count = group.inputsList.length;
    if (group.revealed < count) {
      group.revealed = Math.min(count, group.revealed + group.runsPerPoll);
    }
    const faults = context.faults;
    const extra = faults.options.extraFields === true;
    const shown =
      group.revealed - (faults.roll("getBulkRuns", faults.options.rateShortBulkRuns) ? 1 : 0);
    const runs = new Array(Math.max(0, shown));
    for (let index = 0; index < runs.length; index++) {
      const view = store.viewGroupRun(group, index, now);
      const { outputs } = view;
      const state =
        view.state === "inProgress" && faults.roll("getBulkRuns", faults.options.rateUnknownState)
          ? "queued"
          : view.state;
      runs[index] = extra
        ? { state, outputs, index, runId: `${group.groupId}:${index}` }
        : { state, outputs };
    }
    return { runs };
  });
}
