import type { BulkResumeToken, BulkRunEntry } from "../types.js";

/**
 * What a resume does with each chunk of a window whose bulk went out as several bulkStarts, from
 * the token its chunk intents recorded (`BulkResumeToken.mayHaveSent`): chunks with a group are
 * re-attached, a chunk that may have left without its group recorded is `unknown`, and the chunks
 * after the last one that may have left are sent again (their intent hook was never called, so no
 * bulkStart of theirs can have left).
 *
 * In a window's recorded token, a group id `""` marks a chunk that may have been sent without its
 * group recorded, followed by chunks sent again after a resume.
 *
 * ```
 * chunks:   g0      g1      ?       (never sent)
 * runs:     0 1 2   3 4 5   6 7 8   9 10
 * plan:     named: [0..5]   maybe: [6..8]   unsentFrom: 9
 * ```
 *
 * ## Example
 * ```ts
 * chunkPlan({ spellId: "s", groupIds: ["g0"], chunkSizes: [2, 2, 2], mayHaveSent: 2 });
 * // { named: { token: { spellId: "s", groupIds: ["g0"], chunkSizes: [2] }, runs: [0, 1] },
 * //   maybe: [2, 3], unsentFrom: 4, prefix: { groupIds: ["g0", ""], chunkSizes: [2, 2] } }
 * ```
 * @internal
 */
export interface ChunkPlan {
  /** The chunks with a group, as a token the core re-attaches, and the window run of each run. */
  named?: { token: BulkResumeToken; runs: number[] };
  /** Runs of chunks that may have been sent without their group recorded. */
  maybe: number[];
  /** The first run of the chunks surely not sent (every run from it on); absent when none. */
  unsentFrom?: number;
  /** The window's token up to `unsentFrom`, `""` for a chunk without a group. */
  prefix: { groupIds: string[]; chunkSizes: number[] };
}

/**
 * The plan of a window's recorded token, or undefined when the token needs none: no chunk intent
 * recorded (`mayHaveSent` absent), runs shared by rows (`rows`), or every chunk either named or
 * the one that may have left last (the core's `resumeBulk` handles those).
 *
 * @param token the window's token, as its last group record kept it
 * @return the plan, or undefined
 * @internal
 */
export function chunkPlan(token: BulkResumeToken): ChunkPlan | undefined {
  const { mayHaveSent, groupIds, chunkSizes } = token;
  if (mayHaveSent === undefined || token.rows !== undefined) return undefined;
  const sentChunks = Math.min(chunkSizes.length, Math.max(mayHaveSent, groupIds.length));
  if (sentChunks === chunkSizes.length && !groupIds.includes("")) return undefined;
  const namedIds: string[] = [];
  const namedSizes: number[] = [];
  const namedRuns: number[] = [];
  const maybe: number[] = [];
  let run = 0;
  for (let chunk = 0; chunk < sentChunks; chunk++) {
    const size = chunkSizes[chunk];
    const groupId = groupIds[chunk];
    const runs = Array.from({ length: size }, (_, offset) => run + offset);
    if (groupId) {
      namedIds.push(groupId);
      namedSizes.push(size);
      namedRuns.push(...runs);
    } else maybe.push(...runs);
    run += size;
  }
  return {
    ...(namedIds.length > 0
      ? {
          named: {
            token: { spellId: token.spellId, groupIds: namedIds, chunkSizes: namedSizes },
            runs: namedRuns,
          },
        }
      : {}),
    maybe,
    ...(sentChunks < chunkSizes.length ? { unsentFrom: run } : {}),
    prefix: {
      groupIds: Array.from({ length: sentChunks }, (_, chunk) => groupIds[chunk] ?? ""),
      chunkSizes: chunkSizes.slice(0, sentChunks),
    },
  };
}

/**
 * A window's runs from the runs of its named chunks and of the chunks sent again: `pending` where
 * neither says anything (the `maybe` runs, whose rows are `unknown` already).
 *
 * ## Example
 * ```ts
 * const runs = planRuns(plan, 11, named.runs, resent?.runs);
 * ```
 * @param plan the window's plan
 * @param count the window's runs
 * @param named the runs of `plan.named.token`, in its order
 * @param resent the runs of the chunks sent again, from `plan.unsentFrom`
 * @return one entry per run of the window
 * @internal
 */
export function planRuns(
  plan: ChunkPlan,
  count: number,
  named: readonly BulkRunEntry[] | undefined,
  resent: readonly BulkRunEntry[] | undefined
): BulkRunEntry[] {
  const runs: BulkRunEntry[] = Array.from({ length: count }, () => ({
    state: "pending",
    outputs: {},
  }));
  named?.forEach((entry, index) => {
    const run = plan.named?.runs[index];
    if (run !== undefined) runs[run] = entry;
  });
  const from = plan.unsentFrom;
  if (from !== undefined) resent?.forEach((entry, index) => (runs[from + index] = entry));
  return runs;
}
