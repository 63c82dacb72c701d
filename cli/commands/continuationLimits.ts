import { UsageError } from "../errors/UsageError.js";
import { parsePositiveInteger } from "./parsePositiveInteger.js";

/** The flags `resume` and `retry` share for what they may send and how often they report. */
export interface ContinuationFlags {
  maxInFlight: string;
  maxRuns: string;
  maxBodyBytes?: string;
  chunkSize?: string;
  progressEvery: string;
}

/**
 * The limits of a command that continues a journal's job (`resume`, `retry`), read and checked
 * once for both: a bad value is a `UsageError` naming its flag, before anything is sent.
 *
 * ## Example
 * ```ts
 * const { maxRuns, chunkSize } = continuationLimits(flags);
 * ```
 * @param flags the command's options
 * @return in-flight and run budgets, the body limit, the chunk size for rows not sent yet
 *   (`undefined`: the journal's) and the progress interval in milliseconds
 */
export function continuationLimits(flags: ContinuationFlags): {
  maxInFlight: number;
  maxRuns: number;
  maxBulkBodyBytes: number;
  chunkSize: number | undefined;
  progressEveryMs: number;
} {
  const maxInFlight = parsePositiveInteger(flags.maxInFlight, "--max-in-flight");
  const maxRuns = parsePositiveInteger(flags.maxRuns, "--max-runs");
  const maxBulkBodyBytes = parsePositiveInteger(
    flags.maxBodyBytes ?? "1048576",
    "--max-body-bytes"
  );
  const chunkSize =
    flags.chunkSize === undefined
      ? undefined
      : parsePositiveInteger(flags.chunkSize, "--chunk-size");
  const progressEveryMs = Number(flags.progressEvery) * 1000;
  if (!(progressEveryMs >= 0)) throw new UsageError("--progress-every must be a number of seconds");
  return { maxInFlight, maxRuns, maxBulkBodyBytes, chunkSize, progressEveryMs };
}
