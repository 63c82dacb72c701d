import type { FastifyInstance } from "fastify";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import { endpointHooks } from "./endpointHooks.js";
import { isJsonObject } from "./requestBody.js";

function runIdOf(query: unknown, body: unknown): string {
  const fromQuery = isJsonObject(query) ? query.runId : undefined;
  const fromBody = isJsonObject(body) ? body.runId : undefined;
  const runId = fromQuery ?? fromBody;
  if ((typeof runId === "string" && runId !== "") || typeof runId === "number") {
    return String(runId);
  }
  throw new EmulatorError(
    400,
    "missing_run_id",
    '"runId" is required: ?runId=<id> or a JSON body { "runId": <id> }'
  );
}

/**
 * `GET /spells/getRun?runId=<id>` on the poll host, also in the JSON-body form
 * (`GET` with `{ "runId": <id> }`). Answers `{ state, outputs }`; `outputs` is `{}` while
 * inProgress. The id may be sent as text or as a number whatever its type.
 *
 * @example
 * ```ts
 * pollApp.addHttpMethod("GET", { hasBody: true, overrideExisting: true });
 * registerGetRunRoute(pollApp, context);
 * ```
 */
export function registerGetRunRoute(app: FastifyInstance, context: EmulatorContext): void {
  app.get("/spells/getRun", endpointHooks(context, "getRun"), async (request) => {
    const runId = runIdOf(request.query, request.body);
    const run = context.store.getRun(runId);
    if (!run) throw new EmulatorError(404, "run_not_found", `Unknown runId "${runId}"`);
    const { state, outputs } = context.store.viewRun(run);
    return { state, outputs };
  });
}
