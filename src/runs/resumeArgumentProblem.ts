import { isWellFormedText } from "../util/isWellFormedText.js";

/** Largest run count a resume token may describe (far above any real bulk; guards memory). */
const MAX_RESUME_RUNS = 10_000_000;

/**
 * What is wrong with a run id handed to `resumeRun`, or `undefined` when it can be polled. Checked
 * before any request, so a wrong value fails at once with a clear `SpellError` instead of polling,
 * hanging or throwing a `TypeError`.
 *
 * ## Example
 * ```ts
 * runIdProblem(""); // "the run id is empty"
 * ```
 * @internal
 */
export function runIdProblem(runId: unknown): string | undefined {
  if (typeof runId === "string") {
    if (runId.trim() === "") return "the run id is empty";
    if (runId.length > 1000) return "the run id is longer than 1000 characters";
    if (!isWellFormedText(runId)) return "the run id holds a broken character (a lone surrogate)";
    return undefined;
  }
  if (typeof runId === "number") {
    if (!Number.isSafeInteger(runId) || runId < 0) {
      return "a numeric run id must be a whole number that JavaScript holds exactly; pass it as a string";
    }
    return undefined;
  }
  return `the run id must be a string or a number, not ${describeType(runId)}`;
}

/**
 * What is wrong with a `resumeBulk` token and row count, or `undefined` when they can be resumed.
 * A token with negative, fractional or absurd sizes, or more group ids than chunks, is refused
 * before any request (a bad token must never cancel or poll a live, paid group).
 *
 * ## Example
 * ```ts
 * resumeTokenProblem({ spellId: "echo", groupIds: ["g"], chunkSizes: [-1] }, 1);
 * ```
 * @internal
 */
export function resumeTokenProblem(token: unknown, count: unknown): string | undefined {
  if (token === null || typeof token !== "object") {
    return `the token must be an object ({ spellId, groupIds, chunkSizes }), not ${describeType(token)}`;
  }
  const { spellId, groupIds, chunkSizes, rows } = token as Record<string, unknown>;
  if (typeof spellId !== "string" || spellId.trim() === "")
    return "token.spellId must be a non-empty string";
  if (!Array.isArray(groupIds) || groupIds.some((id) => typeof id !== "string" || id === "")) {
    return "token.groupIds must be an array of non-empty strings";
  }
  if (
    !Array.isArray(chunkSizes) ||
    chunkSizes.length === 0 ||
    chunkSizes.some((size) => !Number.isSafeInteger(size) || (size as number) <= 0)
  ) {
    return "token.chunkSizes must be a non-empty array of positive whole numbers";
  }
  if (groupIds.length > chunkSizes.length) {
    return `the token has ${groupIds.length} group ids for ${chunkSizes.length} chunks`;
  }
  const { mayHaveSent } = token as Record<string, unknown>;
  if (
    mayHaveSent !== undefined &&
    (!Number.isSafeInteger(mayHaveSent) ||
      (mayHaveSent as number) < groupIds.length ||
      (mayHaveSent as number) > chunkSizes.length)
  ) {
    return `token.mayHaveSent must be a whole number from ${groupIds.length} to ${chunkSizes.length}`;
  }
  const total = (chunkSizes as number[]).reduce((sum, size) => sum + size, 0);
  if (total > MAX_RESUME_RUNS)
    return `the token describes ${total} runs, more than ${MAX_RESUME_RUNS}`;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
    return "the row count must be a whole number of 0 or more";
  }
  if (rows === undefined) {
    if (total !== count) return `the token describes ${total} runs, not ${count}`;
    return undefined;
  }
  // A bulk with reuse: `rows` maps each row to a run sent (or -1: answered from the store).
  if (!Array.isArray(rows)) return "token.rows must be an array of whole numbers";
  if (rows.length !== count) return `the token describes ${rows.length} rows, not ${count}`;
  const used = new Array<boolean>(total).fill(false);
  for (const index of rows) {
    if (!Number.isSafeInteger(index) || (index as number) < -1 || (index as number) >= total) {
      return `token.rows must hold whole numbers from -1 to ${total - 1}`;
    }
    if ((index as number) >= 0) used[index as number] = true;
  }
  if (used.includes(false)) return "token.rows leaves a run sent without a row";
  return undefined;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
