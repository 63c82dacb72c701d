import type { Observable } from "rxjs";
import type { ClientParts } from "./ClientParts.js";
import type { BulkOptions, BulkResumeToken, BulkSnapshot, SpellInputs } from "../types.js";
import { bulkContextOf } from "./bulkContextOf.js";
import { resumedBulk } from "./resumedBulk.js";
import { resumeTokenProblem } from "./resumeArgumentProblem.js";
import { RunReuse } from "./RunReuse.js";
import { sendBulk } from "./sendBulk.js";
import { resumedRow } from "./resumedRow.js";

/**
 * `SpellClient.bulk` without the call's own controls: the bulk machinery, loaded with the
 * client's first `bulk` or `resumeBulk` (a program that only runs single spells never loads it).
 *
 * ## Example
 * ```ts
 * clientBulk(parts, "echo", [{ i: 0 }, { i: 1 }], {}).subscribe((s) => console.log(s.counts));
 * ```
 * @param parts the client's parts
 * @param spellId the spell's id
 * @param inputsList one inputs object per run
 * @param options as for `SpellClient.bulk`
 * @return a cold Observable of combined snapshots
 * @internal
 */
export function clientBulk(
  parts: ClientParts,
  spellId: string,
  inputsList: readonly SpellInputs[],
  options: BulkOptions
): Observable<BulkSnapshot> {
  return sendBulk(
    {
      bulkChunkSize: parts.bulkChunkSize,
      maxBulkBodyBytes: parts.maxBulkBodyBytes,
      bulkContext: (retry) => bulkContextOf(parts, retry),
      reuse: () => ({
        ...(parts.reuse ??= new RunReuse(parts.options.reuse)).forBulk((inputs) =>
          parts.reuseKey(spellId, inputs)
        ),
        // A row started earlier (before a reload) is watched again, never sent again (as `run`).
        resume: (started) => resumedRow(parts, started),
      }),
    },
    spellId,
    inputsList as readonly Record<string, unknown>[],
    options
  );
}

/**
 * `SpellClient.resumeBulk`: the token checked against `count`, then the bulk polled again.
 *
 * ## Example
 * ```ts
 * clientResumeBulk(parts, token, rows.length, {}).subscribe(render);
 * ```
 * @param parts the client's parts
 * @param token `snapshot.resume` of the bulk
 * @param count the number of inputs
 * @param options `detach`, as for `bulk`
 * @return a cold Observable of combined snapshots
 * @internal
 */
export function clientResumeBulk(
  parts: ClientParts,
  token: BulkResumeToken,
  count: number,
  options: Pick<BulkOptions, "detach">
): Observable<BulkSnapshot> {
  return resumedBulk(() => bulkContextOf(parts), token, count, options, resumeTokenProblem);
}
