import { concatMap, defer, map, type Observable, throwError } from "rxjs";
import { SpellError } from "../errors/SpellError.js";
import type { BulkOptions, BulkResumeToken, BulkSnapshot } from "../types.js";
import { bulkSnapshots, type BulkChunk, type BulkContext } from "./bulkSnapshots.js";
import { loadCode } from "../util/loadCode.js";

/**
 * The bulk a resume token names, polled again: its argument checked first (a bad token or count
 * errors with `SpellError`), every chunk's group polled with no visibility grace (the groups
 * were accepted before the token was taken, so a 404 means expired), chunks the token knows were
 * not sent ending as "Not sent", and, for a bulk with reuse, its runs spread over the rows again.
 *
 * ## Example
 * ```ts
 * resumedBulk(() => context, token, rowCount, {}, resumeTokenProblem).subscribe(render);
 * ```
 * @param context the bulk machinery, asked once the token passed its checks
 * @param token `snapshot.resume` of the bulk
 * @param count the number of inputs (checked against the token)
 * @param options `detach`, as for `bulk`
 * @param resumeTokenProblem what is wrong with the token and count, if anything
 * @return a cold Observable of combined snapshots
 */
export function resumedBulk(
  context: () => BulkContext,
  token: BulkResumeToken,
  count: number,
  options: Pick<BulkOptions, "detach">,
  resumeTokenProblem: (token: BulkResumeToken, count: number) => string | undefined
): Observable<BulkSnapshot> {
  return defer(() => {
    const problem = resumeTokenProblem(token, count);
    if (problem !== undefined) {
      return throwError(() => new SpellError(`resumeBulk: ${problem}`));
    }
    const chunks: BulkChunk[] = token.chunkSizes.map((size, index) => ({
      size,
      groupId: token.groupIds[index],
      // A token saved by the intent hook knows the chunks that surely were not sent.
      notSent: token.mayHaveSent !== undefined && index >= token.mayHaveSent,
    }));
    // The groups were accepted before the token was taken: a 404 now means expired, not late.
    const sent$ = bulkSnapshots(
      { ...context(), visibilityGraceMs: 0 },
      token.spellId,
      chunks,
      options.detach
    );
    const rows = token.rows;
    // A bulk with reuse: its runs spread over the rows again (see BulkResumeToken.rows).
    return rows
      ? defer(() => loadCode("./runs/reusedBulk.js", () => import("./reusedBulk.js"))).pipe(
          concatMap(({ NOT_IN_TOKEN, spreadSentRuns }) =>
            sent$.pipe(map((snapshot) => spreadSentRuns(snapshot, rows, () => NOT_IN_TOKEN, rows)))
          )
        )
      : sent$;
  });
}
