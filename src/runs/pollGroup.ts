import {
  catchError,
  defer,
  distinctUntilChanged,
  map,
  type Observable,
  of,
  skip,
  startWith,
  tap,
  throwError,
} from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellPollLimitError } from "../errors/SpellPollLimitError.js";
import { toRunState, type BulkRunAnswer } from "../http/parseResponses.js";
import { bulkPaceSchedule } from "../operators/bulkPaceSchedule.js";
import { DEFAULT_POLL, pollUntilDone } from "../operators/pollUntilDone.js";
import type { BulkContext } from "./BulkContext.js";
import { pendingView, sameStates, toChunkView, type ChunkView } from "./ChunkView.js";

/**
 * Polls one group until all its runs are visible and finished; a view per change. A group still
 * unfinished (or showing fewer runs than its inputs) after `poll.maxPollMs` fails with
 * `SpellPollLimitError` saying how many runs it showed.
 *
 * ## Example
 * ```ts
 * pollGroup(context, "g-1", 500, inputs).subscribe((view) => render(view.runs));
 * ```
 * @param context the bulk machinery
 * @param groupId the group's id
 * @param size the chunk's number of inputs
 * @param inputs the chunk's inputs, when known (to match echoes)
 * @return a cold Observable of the chunk's views, one per change
 * @internal
 */
export function pollGroup(
  context: BulkContext,
  groupId: string,
  size: number,
  inputs: readonly Record<string, unknown>[] | undefined
): Observable<ChunkView> {
  return defer(() => {
    const startedAt = context.scheduler.now();
    const visibleBy = startedAt + context.visibilityGraceMs;
    const poll = { ...DEFAULT_POLL, ...context.poll };
    // The service's pace, learned from each answer (runs finished), decides the next poll.
    const pace = poll.bulkSchedule === "fixed" ? undefined : bulkPaceSchedule(size, poll);
    // getBulkRuns is cold: every re-subscription by the poll is a new request.
    const read$ = context.api.getBulkRuns(groupId).pipe(
      catchError((error: unknown) =>
        // Bulk groups may become visible a moment after bulkStart answered.
        error instanceof SpellHttpError &&
        error.status === 404 &&
        context.scheduler.now() < visibleBy
          ? of(null)
          : throwError(() => error)
      )
    );
    return read$.pipe(
      tap((runs) =>
        pace?.observe({
          elapsedMs: context.scheduler.now() - startedAt,
          finished: (runs ?? []).filter((run) => toRunState(run.state) !== "inProgress").length,
        })
      ),
      pollUntilDone<BulkRunAnswer[] | null>(
        (runs) => runs !== null && isFinished(runs, size),
        context.poll,
        context.scheduler,
        {
          ...(pace ? { schedule: pace.schedule } : {}),
          limitError: (runs, elapsedMs) =>
            new SpellPollLimitError({
              groupId,
              elapsedMs,
              limitMs: context.poll.maxPollMs ?? DEFAULT_POLL.maxPollMs,
              visibleRuns: runs?.length ?? 0,
              unfinishedRuns:
                size - (runs ?? []).filter((run) => toRunState(run.state) !== "inProgress").length,
              expectedRuns: size,
            }),
        }
      ),
      map((runs) => toChunkView(groupId, size, runs ?? [], inputs)),
      startWith(pendingView(size, groupId)),
      distinctUntilChanged(sameStates),
      skip(1)
    );
  });
}

function isFinished(runs: BulkRunAnswer[], size: number): boolean {
  return runs.length === size && runs.every((run) => toRunState(run.state) !== "inProgress");
}
