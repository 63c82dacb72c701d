import { SpellProtocolError } from "../errors/SpellProtocolError.js";
import { serviceStateOf, toRunState, type BulkRunAnswer } from "../http/parseResponses.js";
import type { BulkRunEntry } from "../types.js";
import { matchBulkEntries } from "./matchBulkEntries.js";

/**
 * What one chunk of a bulk shows: its group id once known, a row per input (`pending` until
 * visible), and whether every run finished.
 *
 * ## Example
 * ```ts
 * const view: ChunkView = { groupId: "g-1", runs: [entry], done: true };
 * ```
 * @internal
 */
export interface ChunkView {
  groupId?: string;
  runs: BulkRunEntry[];
  done: boolean;
}

/**
 * The view of a group's answer: its runs matched to the chunk's rows (by index or echo when the
 * service says, else by position), unseen rows `pending`; done when every run is visible and
 * finished. More runs than inputs is a `SpellProtocolError`.
 *
 * ## Example
 * ```ts
 * toChunkView("g-1", 2, answers, inputs).done;
 * ```
 * @param groupId the group's id
 * @param size the chunk's number of inputs
 * @param runs the group's runs as getBulkRuns answered
 * @param inputs the chunk's inputs, when known (to match echoes)
 * @return the chunk's view
 * @internal
 */
export function toChunkView(
  groupId: string,
  size: number,
  runs: BulkRunAnswer[],
  inputs: readonly Record<string, unknown>[] | undefined
): ChunkView {
  if (runs.length > size) {
    throw new SpellProtocolError(
      "POST",
      "getBulkRuns",
      `${runs.length} runs for a group of ${size} inputs`,
      undefined
    );
  }
  // Which entry is which row: by index or echo when the service says, else by position.
  const matched = matchBulkEntries(runs, size, inputs);
  const entries = new Array<BulkRunEntry>(size);
  let done = runs.length === size;
  for (let index = 0; index < size; index++) {
    const run = matched[index];
    if (run === undefined) {
      entries[index] = PENDING;
      continue;
    }
    const state = toRunState(run.state);
    if (state === "inProgress") done = false;
    const serviceState = serviceStateOf(run.state);
    entries[index] =
      serviceState === undefined
        ? { state, outputs: run.outputs }
        : { state, serviceState, outputs: run.outputs };
  }
  return { groupId, runs: entries, done };
}

const PENDING: BulkRunEntry = Object.freeze({
  state: "pending",
  outputs: Object.freeze({}),
}) as BulkRunEntry;

/**
 * A chunk's view before any of its runs is visible: every row `pending`.
 *
 * ## Example
 * ```ts
 * pendingView(3, undefined).runs.length; // 3
 * ```
 * @param size the chunk's number of inputs
 * @param groupId the group's id, when known
 * @return the view
 * @internal
 */
export function pendingView(size: number, groupId: string | undefined): ChunkView {
  return { groupId, runs: new Array<BulkRunEntry>(size).fill(PENDING), done: false };
}

/**
 * Whether two views of a chunk show the same thing (group id, done, each row's state and service
 * state): a poll that changed nothing emits no snapshot.
 *
 * ## Example
 * ```ts
 * views.pipe(distinctUntilChanged(sameStates));
 * ```
 * @param previous the view before
 * @param current the view now
 * @return true when nothing a caller sees changed
 * @internal
 */
export function sameStates(previous: ChunkView, current: ChunkView): boolean {
  if (previous.done !== current.done || previous.groupId !== current.groupId) return false;
  return previous.runs.every(
    (run, index) =>
      run.state === current.runs[index].state &&
      run.serviceState === current.runs[index].serviceState
  );
}
