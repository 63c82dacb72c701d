import { type Observable, switchMap, take, takeUntil, timer } from "rxjs";
import type { BulkContext } from "./BulkContext.js";

/**
 * Cancels the group once its id is known, in the background, retried on transient failures.
 * Waiting for the id (a bulkStart still in flight) and the cancel together end within
 * `context.afterUnsubscribeMs` of the unsubscribe, so nothing keeps a process alive longer.
 *
 * ## Example
 * ```ts
 * finalize(() => cancelInBackground(context, of(groupId)));
 * ```
 * @param context the bulk machinery
 * @param groupId$ the group's id, once known (an error means nothing to cancel)
 * @internal
 */
export function cancelInBackground(context: BulkContext, groupId$: Observable<string>): void {
  groupId$
    .pipe(
      take(1),
      switchMap((id) => context.api.cancelBulk(id)),
      // Bounded even if the service keeps answering 429 with long Retry-After values.
      takeUntil(timer(context.afterUnsubscribeMs, context.scheduler))
    )
    .subscribe({ error: noop });
}

function noop(): void {}
