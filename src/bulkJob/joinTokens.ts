import type { BulkResumeToken } from "../types.js";
import type { ChunkPlan } from "./chunkPlan.js";

/**
 * A resumed window's token: the chunks before the ones sent again (`""` for a chunk without a
 * group), then the chunks of the bulk that sends them, in their order.
 *
 * ## Example
 * ```ts
 * joinTokens({ groupIds: ["g0", ""], chunkSizes: [2, 2] },
 *   { spellId: "s", groupIds: ["g2"], chunkSizes: [2], mayHaveSent: 1 });
 * // { spellId: "s", groupIds: ["g0", "", "g2"], chunkSizes: [2, 2, 2], mayHaveSent: 3 }
 * ```
 * @param prefix the chunks before the ones sent again (`ChunkPlan.prefix`)
 * @param token the token of the bulk that sends the rest
 * @return the window's whole token
 * @internal
 */
export function joinTokens(prefix: ChunkPlan["prefix"], token: BulkResumeToken): BulkResumeToken {
  const chunks = prefix.chunkSizes.length;
  return {
    spellId: token.spellId,
    // The groups of the chunks sent again follow the prefix's, "" where a chunk has none.
    groupIds: [...prefix.groupIds, ...token.groupIds],
    chunkSizes: [...prefix.chunkSizes, ...token.chunkSizes],
    ...(token.mayHaveSent === undefined ? {} : { mayHaveSent: chunks + token.mayHaveSent }),
  };
}
