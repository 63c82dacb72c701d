import type { BulkJobOptions } from "./BulkJobOptions.js";
import { BulkJobRunner } from "./BulkJobRunner.js";
import { RETRYABLE_STATUSES, type RowResult, type RowStatus } from "./RowResult.js";

/**
 * A retry of a job that ended: its options as for `BulkJobRunner` (the same rows, a new store and
 * writer), and each row's result in the job retried.
 *
 * ## Example
 * ```ts
 * const options: RetryRowsOptions<Row> = { ...jobOptions, store: new MemoryCheckpointStore(), previousResultOf: (_, i) => earlier[i] };
 * ```
 */
export interface RetryRowsOptions<Row> extends Omit<BulkJobOptions<Row>, "knownResultOf"> {
  /**
   * The row's result in the job retried (what its writer wrote), by the row and its place in the
   * job; undefined for a row that job never wrote, which is run.
   */
  previousResultOf(row: Row, index: number): RowResult | undefined;
  /**
   * Also run the `unknown` rows again: their bulkStart may have reached the service, so each may
   * be paid twice. Only on the user's explicit choice. @default false
   */
  rerunUnknown?: boolean | undefined;
}

/**
 * Whether a retry runs a row that ended with `status`: `RETRYABLE_STATUSES` (`failure`, `error`,
 * `cancelled`, `expired`), and `unknown` only with `rerunUnknown`. A `success` is never run again.
 *
 * ## Example
 * ```ts
 * retriesStatus("unknown", { rerunUnknown: false }); // false
 * ```
 * @param status how the row ended
 * @param options `rerunUnknown`: also `unknown` rows
 * @return whether a retry sends the row
 */
export function retriesStatus(
  status: RowStatus,
  options: { rerunUnknown?: boolean } = {}
): boolean {
  return RETRYABLE_STATUSES.includes(status) || (status === "unknown" && !!options.rerunUnknown);
}

/**
 * The one call that runs a job's unfinished rows again: the rows that ended `failure`, `error`,
 * `cancelled` or `expired` (and `unknown` ones with `rerunUnknown`, at the risk of paying twice)
 * are sent; every other row keeps its result and is handed to the writer with it, so the new
 * output is whole and in input order. Retry a job whose run ended (`complete`, `incomplete`,
 * `interrupted`); resume a stopped one first. A retry is a job of its own: give it a new store,
 * and resume it like any job.
 *
 * ```
 * previous:  success failure unknown cancelled
 * retry:     kept    sent    kept*   sent        (* sent with rerunUnknown)
 * ```
 *
 * ## Example
 * ```ts
 * const earlier = new Map(written.map((row) => [row.index, row]));
 * const result = await retryRows({ ...jobOptions, store: new MemoryCheckpointStore(), writer,
 *   previousResultOf: (_row, index) => earlier.get(index) }).run();
 * ```
 * @param options the job's options and each row's earlier result
 * @return the retry, ready to `run`
 */
export function retryRows<Row>(options: RetryRowsOptions<Row>): BulkJobRunner<Row> {
  const { previousResultOf, rerunUnknown, ...job } = options;
  return new BulkJobRunner<Row>({
    ...job,
    knownResultOf(row, index) {
      const previous = previousResultOf(row, index);
      return previous && !retriesStatus(previous.status, { rerunUnknown }) ? previous : undefined;
    },
  });
}
