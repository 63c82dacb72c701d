import type { Endpoint, HttpMethod } from "./Endpoint.js";
import type { RunState, RunStateCounts } from "./RunState.js";

/**
 * What every log event says about its request: method, endpoint, the URL (host, path and the
 * run id in getRun's query; never a header or the key), and the run or group it is about when
 * known.
 *
 * ## Example
 * ```ts
 * const about: SpellLogRequest = { method: "GET", endpoint: "getRun", url: "https://poll/spells/getRun?runId=7", runId: 7 };
 * ```
 */
export interface SpellLogRequest {
  method: HttpMethod;
  endpoint: Endpoint;
  url: string;
  /** The single run (getRun; start once answered). */
  runId?: string | number;
  /** The bulk run (getBulkRuns, cancelBulk; bulkStart once answered). */
  groupId?: string;
}

/**
 * One thing the client did, reported to `SpellClientOptions.logger` as it happens:
 *
 * | type       | when                                                                    |
 * | ---------- | ----------------------------------------------------------------------- |
 * | `request`  | a request leaves for the service (after its wait for a request slot)    |
 * | `response` | a 2xx answer was read (`status`, `durationMs` from sending)             |
 * | `failed`   | no usable answer: HTTP error (`status`), network, time limit, too large |
 * | `aborted`  | a request in flight was given up by an unsubscribe                     |
 * | `retry`    | a failed request will be sent again after `delayMs` (`retry`: 1, 2…)    |
 * | `poll`     | a poll's answer: a run's `state`, or a bulk run's `counts`              |
 * | `cancel`   | a bulk run is being cancelled (its cancelBulk follows)                  |
 *
 * Never holds the API key: URLs and ids never do, messages are the errors' own (which never
 * do), and bodies (`body`, only with `SpellClientOptions.logBodies`) are scrubbed of it.
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ ...connection, logger: (event) => console.error(formatLogEvent(event)) });
 * ```
 */
export type SpellLogEvent =
  | (SpellLogRequest & { type: "request"; body?: unknown })
  | (SpellLogRequest & { type: "response"; status: number; durationMs: number; body?: unknown })
  | (SpellLogRequest & {
      type: "failed";
      /** The HTTP status of an error answer; absent for a network error or a time limit. */
      status?: number;
      durationMs: number;
      /** The error's name and message (`SpellHttpError: POST /spells/start failed with HTTP 503`). */
      error: string;
    })
  | (SpellLogRequest & { type: "aborted"; durationMs: number })
  | (SpellLogRequest & {
      type: "retry";
      /** 1 for the first retry. */
      retry: number;
      delayMs: number;
      /** Why: the failed attempt's error (name and message). */
      error: string;
      /**
       * True when the host gave no answer at all (a refused, reset or dropped connection, a time
       * limit), false after an error answer (429, 503…). See `isRetryAfterNoAnswer`.
       */
      noAnswer: boolean;
    })
  | (SpellLogRequest & { type: "poll"; state: RunState; serviceState?: string })
  | (SpellLogRequest & { type: "poll"; counts: RunStateCounts; runs: number })
  | (SpellLogRequest & { type: "cancel" });

/**
 * Receives the client's log events (see `SpellLogEvent`); called synchronously, so keep it
 * cheap. An exception it throws is caught and ignored: logging never changes a run.
 *
 * ## Example
 * ```ts
 * const logger: SpellLogger = (event) => events.push(event);
 * ```
 */
export type SpellLogger = (event: SpellLogEvent) => void;
