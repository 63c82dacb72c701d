import type { RequestTarget } from "../errors/describeRequest.js";
import { field, parseRunAnswer, shapeError, type BulkRunAnswer } from "./parseResponses.js";

/**
 * The `runs` of a getBulkRuns answer, in the order the service sent them.
 *
 * ## Example
 * ```ts
 * parseBulkRuns({ runs: [{ state: "success", outputs: { i: 0 } }] }, { method: "POST", endpoint: "getBulkRuns", url });
 * ```
 * @internal
 */
export function parseBulkRuns(body: unknown, request: RequestTarget): BulkRunAnswer[] {
  const runs = field(body, "runs", request);
  if (!Array.isArray(runs)) {
    throw shapeError(request, `"runs" must be an array`, body);
  }
  return runs.map((run: unknown) => {
    const answer: BulkRunAnswer = parseRunAnswer(run, request);
    // What may identify the entry's input (see matchBulkEntries); ignored when malformed.
    const { index, inputs } = run as Record<string, unknown>;
    if (typeof index === "number" && Number.isInteger(index)) answer.index = index;
    if (inputs !== null && typeof inputs === "object" && !Array.isArray(inputs)) {
      answer.inputs = inputs as Record<string, unknown>;
    }
    return answer;
  });
}
