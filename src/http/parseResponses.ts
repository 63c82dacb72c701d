import { SpellProtocolError } from "../errors/SpellProtocolError.js";
import type { RequestTarget } from "../errors/describeRequest.js";
import type { RunState } from "../types.js";
import { isWellFormedText } from "../util/isWellFormedText.js";

// Validators of the service's 2xx bodies. Each returns only the fields the core uses (extra
// fields are ignored) and throws `SpellProtocolError` naming the field that is missing or
// mistyped, and the request (method, endpoint, URL) that got the body.

/**
 * A run as getRun (and every getBulkRuns entry) reports it, the state kept verbatim.
 *
 * ## Example
 * ```ts
 * const answer: RunAnswer = { state: "inProgress", outputs: {} };
 * ```
 * @internal
 */
export interface RunAnswer {
  state: string;
  outputs: Record<string, unknown>;
}

/**
 * A wait-mode start answer; the service document shows only `outputs`.
 *
 * ## Example
 * ```ts
 * const answer: WaitAnswer = { outputs: { summary: "..." } };
 * ```
 * @internal
 */
export interface WaitAnswer {
  state?: string;
  outputs?: Record<string, unknown>;
  /** Set when the service answered a polling-mode `{ runId }` instead (no outputs yet). */
  runId?: string | number;
  /** The run's id, when a finished answer carried one (for messages). */
  id?: string | number;
}

// Keys are lower case: the service's state strings are compared without case.
const STATES_BY_TEXT: ReadonlyMap<string, RunState> = new Map<string, RunState>([
  ["inprogress", "inProgress"],
  ["success", "success"],
  ["failure", "failure"],
  ["error", "error"],
  // Not in the service document, but unambiguous: a cancelled run never finishes otherwise.
  ["cancelled", "error"],
  ["canceled", "error"],
]);

/**
 * Maps a state string to `RunState`, without case: `cancelled` / `canceled` are `error`, and an
 * unknown one counts as not finished (`inProgress`), so a state the service adds later never
 * makes the client stop watching a run (`PollOptions.maxPollMs` bounds it).
 *
 * ## Example
 * ```ts
 * toRunState("SUCCESS"); // "success"
 * toRunState("cancelled"); // "error"
 * toRunState("queued"); // "inProgress"
 * ```
 * @internal
 */
export function toRunState(state: string): RunState {
  return STATES_BY_TEXT.get(state.toLowerCase()) ?? "inProgress";
}

/**
 * The service's state text when it is not exactly one of the four `RunState` strings, else
 * undefined: what `RunSnapshot.serviceState` shows.
 *
 * ## Example
 * ```ts
 * serviceStateOf("queued"); // "queued"
 * serviceStateOf("success"); // undefined
 * ```
 * @internal
 */
export function serviceStateOf(state: string): string | undefined {
  return toRunState(state) === state ? undefined : state;
}

/**
 * The `runId` of a start (wait false) or bulkStart answer: a non-empty string or a finite number.
 *
 * ## Example
 * ```ts
 * parseRunId({ runId: 42, extra: true }, { method: "POST", endpoint: "start", url }); // 42
 * ```
 * @internal
 */
export function parseRunId(body: unknown, request: RequestTarget): string | number {
  const runId = field(body, "runId", request);
  if (request.endpoint === "start" && typeof runId === "string" && !isWellFormedText(runId)) {
    // It could never be sent in a getRun URL (encodeURIComponent throws URIError); a group id
    // goes back in a JSON body, where it is fine.
    throw shapeError(request, `"runId" holds a broken character (a lone surrogate)`, body);
  }
  if (
    (typeof runId === "string" && runId !== "") ||
    (typeof runId === "number" && Number.isFinite(runId))
  ) {
    return runId;
  }
  throw shapeError(request, `"runId" must be a non-empty string or a number`, body);
}

/**
 * The bulk run id of a bulkStart answer, as the string sent back as `groupId`.
 *
 * ## Example
 * ```ts
 * parseGroupId({ runId: "bulk-1" }, { method: "POST", endpoint: "bulkStart", url }); // "bulk-1"
 * ```
 * @internal
 */
export function parseGroupId(body: unknown, request: RequestTarget): string {
  const runId = parseRunId(body, request);
  // The service document types a bulk run id as a string; a number is accepted and normalised
  // because it is sent back as a JSON string `groupId`.
  return String(runId);
}

/**
 * A wait-mode start answer: `outputs` and, if the service sends one, `state`; or, without
 * outputs and unfinished, the `runId` of a run the service chose to continue in polling mode.
 *
 * ## Example
 * ```ts
 * parseWaitAnswer({ outputs: { words: 3 } }, { method: "POST", endpoint: "start", url }); // { outputs: { words: 3 } }
 * ```
 * @internal
 */
export function parseWaitAnswer(body: unknown, request: RequestTarget): WaitAnswer {
  const object = asObject(body, request);
  const answer: WaitAnswer = {};
  if (object.state !== undefined) {
    if (typeof object.state !== "string") {
      throw shapeError(request, `"state" must be a string`, body);
    }
    answer.state = object.state;
  }
  if (object.outputs !== undefined && object.outputs !== null) {
    answer.outputs = asOutputs(object.outputs, request, body);
  } else if (
    "runId" in object &&
    (answer.state === undefined || toRunState(answer.state) === "inProgress")
  ) {
    // A service that switches long spells to polling: the run goes on under this id.
    answer.runId = parseRunId(body, request);
  }
  if (
    answer.runId === undefined &&
    ((typeof object.runId === "string" && object.runId !== "" && isWellFormedText(object.runId)) ||
      (typeof object.runId === "number" && Number.isFinite(object.runId)))
  ) {
    // A finished answer that names its run: kept for messages only (a bad one is ignored).
    answer.id = object.runId;
  }
  return answer;
}

/**
 * A getRun answer or one getBulkRuns entry. `outputs` may be missing except for a success.
 *
 * ## Example
 * ```ts
 * parseRunAnswer({ state: "inProgress" }, { method: "GET", endpoint: "getRun", url }); // { state: "inProgress", outputs: {} }
 * ```
 * @internal
 */
export function parseRunAnswer(body: unknown, request: RequestTarget): RunAnswer {
  const object = asObject(body, request);
  if (typeof object.state !== "string") {
    throw shapeError(request, `"state" must be a string`, body);
  }
  const outputs = object.outputs;
  if (outputs === undefined || outputs === null) {
    // A finished success must carry its outputs; other states may omit them.
    if (toRunState(object.state) === "success") {
      throw shapeError(request, `"outputs" missing for a success`, body);
    }
    return { state: object.state, outputs: {} };
  }
  return { state: object.state, outputs: asOutputs(outputs, request, body) };
}

/**
 * A getBulkRuns entry: a run answer and, when the service sent them, what identifies its input
 * (`index` in the bulkStart, or an echo of its `inputs`); see `matchBulkEntries`.
 *
 * ## Example
 * ```ts
 * const entry: BulkRunAnswer = { state: "success", outputs: { n: 1 }, inputs: { n: 1 } };
 * ```
 * @internal
 */
export interface BulkRunAnswer extends RunAnswer {
  index?: number;
  inputs?: Record<string, unknown>;
}

/**
 * The field `name` of a body that must be a JSON object; `SpellProtocolError` when missing.
 *
 * ## Example
 * ```ts
 * field({ runs: [] }, "runs", { method: "POST", endpoint: "getBulkRuns", url }); // []
 * ```
 * @internal
 */
export function field(body: unknown, name: string, request: RequestTarget): unknown {
  const object = asObject(body, request);
  if (!(name in object)) throw shapeError(request, `"${name}" missing`, body);
  return object[name];
}

function asObject(body: unknown, request: RequestTarget): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw shapeError(request, "expected a JSON object", body);
  }
  return body as Record<string, unknown>;
}

function asOutputs(
  outputs: unknown,
  request: RequestTarget,
  body: unknown
): Record<string, unknown> {
  if (typeof outputs !== "object" || outputs === null || Array.isArray(outputs)) {
    throw shapeError(request, `"outputs" must be an object`, body);
  }
  return outputs as Record<string, unknown>;
}

/**
 * The error of a body without the shape the core needs, naming its request and URL.
 *
 * ## Example
 * ```ts
 * throw shapeError({ method: "GET", endpoint: "getRun", url }, `"state" must be a string`, body);
 * ```
 * @internal
 */
export function shapeError(
  request: RequestTarget,
  problem: string,
  body: unknown
): SpellProtocolError {
  return new SpellProtocolError(request.method, request.endpoint, problem, body, request.url);
}
