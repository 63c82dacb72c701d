import { combineLatest, map, of, type Observable } from "rxjs";
import { countRunStates } from "../countRunStates.js";
import type { BulkResumeToken, BulkSnapshot } from "../types.js";
import type { BulkJobOptions } from "./BulkJobOptions.js";
import { planRuns, type ChunkPlan } from "./chunkPlan.js";
import { joinTokens } from "./joinTokens.js";
import { setResult, unknownResult, type JobWindow } from "./JobWindow.js";

/**
 * A resumed window whose chunk intents say some chunks surely were not sent: its named groups
 * re-attached, the rows of a chunk that may have left `unknown`, the chunks never sent sent
 * now (their rows already passed the spending gate with the window; no reuse, so each row
 * keeps its own run), one snapshot of the whole window at a time.
 *
 * ```
 * named$:   ──a────────b──|
 * resent$:  ────x──y───────z──|
 * result:   ────s──s───s───s──|      s = planRuns of the whole window
 * ```
 *
 * ## Example
 * ```ts
 * const source = resumeByChunks(options, window, token, chunkPlan(token)!, detach$, (chunk, prefix) =>
 *   recordChunkIntent(window, chunk, prefix)
 * );
 * ```
 * @param options the job's options (client, spell, inputs, unknown reason, signal)
 * @param window the resumed window (its token, group and `unknown` rows are set here)
 * @param token the window's recorded token
 * @param plan the token's plan (`chunkPlan`)
 * @param detach$ emits when the job ends the bulks without cancelling them
 * @param chunkIntent records a chunk's intent before its bulkStart can leave
 * @return the window's snapshots
 * @internal
 */
export function resumeByChunks<Row>(
  options: BulkJobOptions<Row>,
  window: JobWindow<Row>,
  token: BulkResumeToken,
  plan: ChunkPlan,
  detach$: Observable<void>,
  chunkIntent: (chunk: BulkResumeToken, prefix: ChunkPlan["prefix"]) => Promise<void>
): Observable<BulkSnapshot> {
  const { client, spellId } = options;
  const unknown = unknownResult(options.unknownRowReason);
  for (const run of plan.maybe) setResult(window, window.sentRows[run], unknown);
  window.token = token;
  window.groupId = token.groupIds.find((id) => id !== "");
  window.mayHaveSent = token.mayHaveSent;
  window.partlySent = true;
  const count = window.sentRows.length;
  const named$ = plan.named
    ? client.resumeBulk(plan.named.token, plan.named.runs.length, { detach: detach$ })
    : of(undefined);
  const from = plan.unsentFrom;
  const resent$ =
    from === undefined
      ? of(undefined)
      : client.bulk(
          spellId,
          window.sentRows.slice(from).map((place) => options.inputsOf(window.rows[place])),
          {
            ...(options.bulkOptions?.signal ? { signal: options.bulkOptions.signal } : {}),
            beforeChunkStart: (chunk) => chunkIntent(chunk, plan.prefix),
            detach: detach$,
          }
        );
  return combineLatest([named$, resent$]).pipe(
    map(([named, resent]): BulkSnapshot => {
      const runs = planRuns(plan, count, named?.runs, resent?.runs);
      const resume = resent ? joinTokens(plan.prefix, resent.resume) : token;
      return {
        groupId: window.groupId ?? "",
        groupIds: resume.groupIds,
        runs,
        done: (named?.done ?? true) && (resent?.done ?? true),
        total: count,
        counts: countRunStates(runs),
        resume,
      };
    })
  );
}
