import { SpellError } from "./SpellError.js";

/**
 * What `SpellPollLimitError` knows about the run (or bulk group) it gave up on.
 *
 * ## Example
 * ```ts
 * const details: SpellPollLimitDetails = { runId: 42, limitMs: 3_600_000, elapsedMs: 3_600_012, lastState: "queued" };
 * ```
 */
export interface SpellPollLimitDetails {
  /** The single run still unfinished; pass it to `resumeRun` to continue. */
  runId?: string | number;
  /** The bulk group still unfinished; its `resume` token lets `resumeBulk` continue. */
  groupId?: string;
  /** `PollOptions.maxPollMs` that was reached. */
  limitMs: number;
  /** How long the run was polled. */
  elapsedMs: number;
  /** The last state the service reported, verbatim (single runs). */
  lastState?: string;
  /** Runs the group showed in its last getBulkRuns answer (bulk). */
  visibleRuns?: number;
  /** Runs of the group still not finished in that answer, the invisible ones included (bulk). */
  unfinishedRuns?: number;
  /** Inputs of the group (bulk). */
  expectedRuns?: number;
}

/**
 * Polling reached `PollOptions.maxPollMs` while the run (or a bulk group) was still not
 * finished: in progress, in a state the client does not know, or a group that shows fewer runs
 * than its inputs. The run is left alone at the service (not cancelled); `runId` / `groupId`
 * say where to continue. The message never contains the run id (ids are the service's text).
 *
 * ## Example
 * ```ts
 * client.run("slow", inputs, { wait: false }).subscribe({
 *   error: (error) => {
 *     if (error instanceof SpellPollLimitError) later(() => client.resumeRun(error.runId!));
 *   },
 * });
 * ```
 */
export class SpellPollLimitError extends SpellError {
  static override readonly errorName: string = "SpellPollLimitError";

  override name = "SpellPollLimitError" as const;
  readonly runId?: string | number;
  readonly groupId?: string;
  readonly limitMs: number;
  readonly elapsedMs: number;
  readonly lastState?: string;
  readonly visibleRuns?: number;
  readonly unfinishedRuns?: number;
  readonly expectedRuns?: number;

  constructor(details: SpellPollLimitDetails) {
    super(describe(details));
    this.runId = details.runId;
    this.groupId = details.groupId;
    this.limitMs = details.limitMs;
    this.elapsedMs = details.elapsedMs;
    this.lastState = details.lastState;
    this.visibleRuns = details.visibleRuns;
    this.unfinishedRuns = details.unfinishedRuns;
    this.expectedRuns = details.expectedRuns;
  }
}

function describe(details: SpellPollLimitDetails): string {
  const after = `after ${Math.round(details.elapsedMs)} ms of polling (maxPollMs ${details.limitMs})`;
  if (details.expectedRuns !== undefined) {
    const visible = details.visibleRuns ?? 0;
    const what =
      visible < details.expectedRuns
        ? `getBulkRuns showed ${visible} of ${details.expectedRuns} runs`
        : `${details.unfinishedRuns ?? 0} of ${details.expectedRuns} runs were still unfinished`;
    return `Bulk group not finished ${after}: ${what}; resumeBulk with the last snapshot's resume token continues`;
  }
  const state = details.lastState === undefined ? "" : ` (last state "${details.lastState}")`;
  return `Run not finished ${after}${state}; resumeRun(error.runId) continues`;
}
