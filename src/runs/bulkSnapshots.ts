import {
  AsyncSubject,
  combineLatest,
  concat,
  defer,
  EMPTY,
  finalize,
  from,
  ignoreElements,
  map,
  NEVER,
  Observable,
  of,
  ReplaySubject,
  share,
  startWith,
  switchMap,
  take,
  takeUntil,
  tap,
} from "rxjs";
import { retryTransient } from "../operators/retryTransient.js";
import type { BulkOptions, BulkRunEntry, BulkSnapshot } from "../types.js";
import type { BulkContext } from "./BulkContext.js";
import { cancelInBackground } from "./cancelInBackground.js";
import { chunkViewsSnapshot } from "./chunkViewsSnapshot.js";
import { pendingView, type ChunkView } from "./ChunkView.js";
import { pollGroup } from "./pollGroup.js";

// client.ts takes the type from here.
export type { BulkContext } from "./BulkContext.js";

/**
 * One chunk of a bulk: either inputs still to submit, or a group id to re-attach to. A chunk
 * with neither was never submitted before the bulk was interrupted (see `resumeBulk`).
 *
 * ## Example
 * ```ts
 * const chunks: BulkChunk[] = [{ size: 2, inputs: [{ i: 0 }, { i: 1 }] }, { size: 500, groupId: "g-2" }];
 * ```
 * @internal
 */
export interface BulkChunk {
  size: number;
  inputs?: readonly Record<string, unknown>[];
  groupId?: string;
  /** A chunk of a resumed token that was surely not sent (see `BulkResumeToken.mayHaveSent`). */
  notSent?: boolean;
}

/** Shared by the chunks of one subscription. */
interface BulkRunState {
  /** Set when the bulk errors: the runs are left running so that `resume` can pick them up. */
  failed: boolean;
  /** Set when the caller detached: the runs are left running too (see `BulkOptions.detach`). */
  detached: boolean;
}

const NOT_IN_TOKEN: BulkRunEntry = Object.freeze({
  state: "error",
  outputs: Object.freeze({
    error:
      "Unknown: this chunk had no bulk run id when the resume token was taken, and may have been sent after that: not sent again, as that may pay for it twice",
  }),
}) as BulkRunEntry;

const NOT_SENT: BulkRunEntry = Object.freeze({
  state: "error",
  outputs: Object.freeze({
    error:
      "Not sent: this chunk's bulkStart had not left when the resume token was saved before it; sending it again cannot pay twice",
  }),
}) as BulkRunEntry;

/**
 * The snapshot stream of a bulk made of chunks. Each chunk holds one run slot (`maxRunsInProgress`) from its
 * bulkStart until its runs are finished; bulkStarts go out in chunk order, one at a time, so
 * `resume.groupIds` is always a prefix of the chunks. The subscriber sees one combined stream:
 * a snapshot whenever a run changes state (or a group id becomes known), completing after the
 * done snapshot.
 *
 * Unsubscribing before done sends exactly one cancelBulk per unfinished group (also for a group
 * whose bulkStart was in flight: its answer is awaited, then cancelled), in the background,
 * retried, and ended `afterUnsubscribeMs` after the unsubscribe at the latest. An error does not
 * cancel: the runs keep their value and can be resumed. Nor does `detach$`: when it emits, the
 * stream completes and leaves the runs going (a caller that can no longer use the results but
 * will resume later).
 *
 * ```
 * chunk 0:  p─────s0──────────d0|
 * chunk 1:  p───────────s1─────────d1|
 * result:   P─────S─────S─────S────D|      (P: all pending, D: done)
 * ```
 *
 * ## Example
 * ```ts
 * bulkSnapshots(context, "echo", [{ size: 2, inputs: [{ i: 0 }, { i: 1 }] }]).subscribe(console.log);
 * ```
 * @internal
 */
export function bulkSnapshots(
  context: BulkContext,
  spellId: string,
  chunks: BulkChunk[],
  detach$: Observable<unknown> = NEVER,
  beforeChunkStart?: BulkOptions["beforeChunkStart"]
): Observable<BulkSnapshot> {
  const chunkSizes = chunks.map((chunk) => chunk.size);
  if (chunks.length === 0) {
    return defer(() => of(chunkViewsSnapshot(spellId, chunkSizes, [])));
  }
  return defer(() => {
    const runState: BulkRunState = { failed: false, detached: false };
    const started = chunks.map(() => new AsyncSubject<void>());
    // Group ids as the chunks' bulkStarts answer (in chunk order), for the intent hook's tokens.
    const groupIds: string[] = [];
    const intent = (index: number): Observable<never> =>
      beforeChunkStart
        ? defer(() =>
            from(
              beforeChunkStart({
                spellId,
                groupIds: groupIds.slice(0, index),
                chunkSizes,
                mayHaveSent: index + 1,
              })
            )
          ).pipe(take(1), ignoreElements())
        : EMPTY;
    const views = chunks.map((chunk, index) =>
      chunkViews(
        context,
        spellId,
        chunk,
        concat<void[]>(index === 0 ? of(undefined) : started[index - 1], intent(index)),
        started[index],
        runState,
        (groupId) => (groupIds[index] = groupId)
      )
    );
    return combineLatest(views).pipe(
      map((latest) => chunkViewsSnapshot(spellId, chunkSizes, latest)),
      // The flag is set before takeUntil unsubscribes the chunks, whose finalize then skips the cancel.
      takeUntil(detach$.pipe(tap(() => (runState.detached = true))))
    );
  });
}

/**
 * The views of one chunk: pending, then (once its bulkStart answered, or at once for a group id
 * to re-attach to) the polled views of its group until done.
 *
 * When the subscriber leaves before done, `finalize` cancels the group in the background; never
 * after done or an error (the runs stay resumable). The bulkStart attempt is shared through a
 * `ReplaySubject` that outlives the unsubscribe once the request was sent: it is never aborted
 * half way (the service may already have started the group), and its answer goes to the cancel.
 * An attempt still queued for a request slot is dropped: nothing was sent, nothing to cancel.
 */
function chunkViews(
  context: BulkContext,
  spellId: string,
  chunk: BulkChunk,
  previousStarted: Observable<void>,
  started: AsyncSubject<void>,
  runState: BulkRunState,
  onGroupId?: (groupId: string) => void
): Observable<ChunkView> {
  if (chunk.groupId === undefined && chunk.inputs === undefined) {
    const entry = chunk.notSent ? NOT_SENT : NOT_IN_TOKEN;
    return of({ runs: new Array<BulkRunEntry>(chunk.size).fill(entry), done: true });
  }
  return defer(() => {
    let groupId = chunk.groupId;
    let done = false;
    // The latest bulkStart attempt that was sent: its group id is replayed to the cancel even
    // after the subscriber left; an attempt that failed replays its error (nothing to cancel).
    let sentAttempt: Observable<string> | undefined;

    const bulkStart$ = defer(() => {
      let sent = false;
      const attempt$: Observable<string> = context.api
        .bulkStartOnce(spellId, chunk.inputs ?? [], () => {
          sent = true;
          sentAttempt = attempt$;
        })
        .pipe(
          share({
            connector: () => new ReplaySubject<string>(1),
            // Never sent again by a late subscriber (the cancel).
            resetOnError: false,
            resetOnComplete: false,
            // When the subscriber leaves: a sent request is never aborted (the service may
            // have started the group; its answer goes to the cancel); one still waiting for a
            // request slot is dropped, so nothing is sent at all.
            resetOnRefCountZero: () => (sent ? NEVER : of(true)),
          })
        );
      return attempt$;
    });

    const groupId$: Observable<string> =
      groupId !== undefined
        ? of(groupId)
        : concat(
            previousStarted.pipe(ignoreElements()),
            bulkStart$.pipe(
              retryTransient<string>(
                "bulkStart",
                context.retry,
                context.scheduler,
                context.logBulkStartRetry
              )
            )
          );

    const work$ = groupId$.pipe(
      tap((id) => {
        groupId = id;
        onGroupId?.(id);
        // The next chunk's bulkStart may go out now (group ids stay a prefix of the chunks).
        started.next();
        started.complete();
      }),
      switchMap((id) =>
        pollGroup(context, id, chunk.size, chunk.inputs).pipe(
          startWith(pendingView(chunk.size, id))
        )
      )
    );

    return context.limiter.schedule(work$).pipe(
      startWith(pendingView(chunk.size, groupId)),
      tap({
        next: (view) => (done = view.done),
        // Set before the error reaches combineLatest, which then unsubscribes the other chunks.
        error: () => (runState.failed = true),
      }),
      finalize(() => {
        if (done || runState.failed || runState.detached) return;
        if (groupId !== undefined) cancelInBackground(context, of(groupId));
        else if (sentAttempt !== undefined) cancelInBackground(context, sentAttempt);
      })
    );
  });
}
