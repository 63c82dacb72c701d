/**
 * How many runs a start or bulkStart would start, read from its body: 1 per start, the number of
 * inputs of a bulkStart; or why the body cannot be charged (the call is then refused, 400, since
 * a body this server cannot count could start runs nobody pays for).
 *
 * ## Example
 * ```ts
 * runsOfRequest("bulkStart", Buffer.from('{"spellId":"s","inputs":[{},{}]}')); // { spellId: "s", runs: 2 }
 * ```
 *
 * @param endpoint start or bulkStart.
 * @param body The request body as received.
 * @return The spell and the runs, or the problem.
 */
export function runsOfRequest(
  endpoint: "start" | "bulkStart",
  body: unknown
): { spellId: string; runs: number } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.isBuffer(body) ? body.toString("utf8") : String(body ?? ""));
  } catch {
    return { problem: `The ${endpoint} body is not JSON.` };
  }
  if (typeof parsed !== "object" || parsed === null) {
    return { problem: `The ${endpoint} body must be a JSON object.` };
  }
  const { spellId, inputs } = parsed as { spellId?: unknown; inputs?: unknown };
  if (typeof spellId !== "string" || spellId === "") {
    return { problem: `The ${endpoint} body names no spellId.` };
  }
  if (endpoint === "start") return { spellId, runs: 1 };
  if (!Array.isArray(inputs) || inputs.length === 0) {
    return { problem: "The bulkStart body's inputs must be a non-empty list." };
  }
  return { spellId, runs: inputs.length };
}
