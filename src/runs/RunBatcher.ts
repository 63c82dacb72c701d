import {
  AsyncSubject,
  defer,
  filter,
  map,
  Observable,
  ReplaySubject,
  share,
  switchMap,
  takeWhile,
  timer,
  type Subscription,
} from "rxjs";
import { onStateChanges } from "../operators/onStateChanges.js";
import type { BulkSnapshot, RunSnapshot } from "../types.js";
import type { BulkContext } from "./BulkContext.js";
import { bulkSnapshots } from "./bulkSnapshots.js";

/**
 * How `SpellClient` batches polling-mode runs into bulk runs (see `SpellClientOptions.batch`).
 *
 * ## Example
 * ```ts
 * const options: BatchSettings = { windowMs: 50, maxSize: 500 };
 * ```
 * @internal
 */
export interface BatchSettings {
  /** How long a batch stays open after its first call. */
  windowMs: number;
  /** A batch closes at once when it holds this many calls (at most the bulk chunk size). */
  maxSize: number;
}

/** One caller of a batch, from its subscription on. */
interface Member {
  inputs: Record<string, unknown>;
  /** Its row in the bulk run, set when the batch closes; -1 before. */
  index: number;
  /** Unsubscribed before the batch closed: it is left out of the bulkStart. */
  left: boolean;
}

/** An open (or just closed) batch of one spell. */
interface Batch {
  spellId: string;
  members: Member[];
  /** Emits the shared bulk run of the batch once, when the batch closes. */
  closed: AsyncSubject<Observable<BulkSnapshot>>;
  window?: Subscription;
  isClosed: boolean;
}

/**
 * Batches single polling-mode runs of one spell that arrive within `windowMs` of each other
 * (up to `maxSize`) into one bulk run: one `bulkStart`, then `getBulkRuns` polls for all of them.
 * Each caller gets its own cold Observable of its own run, exactly like `run` in polling mode:
 * `inProgress` once the service accepted the bulk (no `runId`: a bulk run shows none), then a
 * snapshot per change of state, completing after `success`; `failure` or `error` of its run is a
 * `SpellRunError` for that caller only; an error of the bulk run itself (a refused `bulkStart`, a
 * broken `getBulkRuns`) reaches every caller of the batch.
 *
 * A caller leaving before the batch closes is left out of the `bulkStart` (nothing was sent for
 * it). After that, leaving drops only its interest; when the last caller of a batch leaves before
 * the bulk run is finished, its group is cancelled with exactly one `cancelBulk` (see
 * `bulkSnapshots`). The batch holds one slot of the client's `maxRunsInProgress`, like a chunk of
 * `bulk`. Identical calls are not merged here: the client's result reuse does that before a call
 * reaches the batcher.
 *
 * ```
 * caller a:  a─────────────                 (subscribes at 0)
 * caller b:  ──b───────────                 (subscribes at 2)
 * window:    ──────w                        (closes windowMs after a)
 * bulkStart:       [a, b]──g                (one request)
 * a$:                      i──────s|
 * b$:                      i──────────f#    (b's own SpellRunError)
 * ```
 *
 * ## Example
 * ```ts
 * const batcher = new RunBatcher(() => bulkContext, { windowMs: 50, maxSize: 500 });
 * batcher.run("summarize", { text: "first" }).subscribe(console.log);
 * batcher.run("summarize", { text: "second" }).subscribe(console.log); // same bulkStart
 * ```
 * @internal
 */
export class RunBatcher {
  private readonly open = new Map<string, Batch>();

  /**
   * @param context the bulk machinery of the client (api, limiter, poll, scheduler)
   * @param settings the window and size of a batch (checked by the client)
   */
  constructor(
    private readonly context: () => BulkContext,
    private readonly settings: BatchSettings
  ) {}

  /**
   * One run of `spellId` over `inputs`, sent with the other calls of its batch.
   *
   * ## Example
   * ```ts
   * batcher.run("echo", { text: "hi" }).subscribe((snapshot) => console.log(snapshot.state));
   * ```
   * @param spellId the spell's id (a batch holds one spell)
   * @param inputs the spell's inputs
   * @return a cold Observable of this call's snapshots
   */
  run(spellId: string, inputs: Record<string, unknown>): Observable<RunSnapshot> {
    return new Observable<RunSnapshot>((subscriber) => {
      const batch = this.join(spellId);
      const member: Member = { inputs, index: -1, left: false };
      batch.members.push(member);
      const subscription = batch.closed
        .pipe(
          switchMap((bulk$) => bulk$),
          // Nothing to say before the service accepted the bulk: `run` starts with its answer.
          filter((snapshot) => snapshot.groupIds.length > 0),
          map((snapshot) => toRunSnapshot(snapshot, member.index)),
          onStateChanges(),
          takeWhile((snapshot) => snapshot.state === "inProgress", true)
        )
        .subscribe(subscriber);
      if (batch.members.length >= this.settings.maxSize) this.close(batch);
      return () => {
        subscription.unsubscribe();
        if (batch.isClosed) return;
        member.left = true;
        if (batch.members.every((other) => other.left)) this.abandon(batch);
      };
    });
  }

  /** The open batch of the spell, or a new one whose window starts now. */
  private join(spellId: string): Batch {
    const existing = this.open.get(spellId);
    if (existing) return existing;
    const batch: Batch = {
      spellId,
      members: [],
      closed: new AsyncSubject<Observable<BulkSnapshot>>(),
      isClosed: false,
    };
    this.open.set(spellId, batch);
    batch.window = timer(this.settings.windowMs, this.context().scheduler).subscribe(() =>
      this.close(batch)
    );
    return batch;
  }

  /** Every caller left before the window closed: nothing is sent. */
  private abandon(batch: Batch): void {
    batch.window?.unsubscribe();
    batch.isClosed = true;
    if (this.open.get(batch.spellId) === batch) this.open.delete(batch.spellId);
  }

  /** Ends the window: the callers still there get their rows, and the bulk run is shared. */
  private close(batch: Batch): void {
    if (batch.isClosed) return;
    batch.isClosed = true;
    batch.window?.unsubscribe();
    if (this.open.get(batch.spellId) === batch) this.open.delete(batch.spellId);
    const inputs: Record<string, unknown>[] = [];
    for (const member of batch.members) {
      if (member.left) continue;
      member.index = inputs.length;
      inputs.push(member.inputs);
    }
    const context = this.context();
    const bulk$ = defer(() =>
      bulkSnapshots(context, batch.spellId, [{ size: inputs.length, inputs }])
    ).pipe(
      // One bulk run for every caller; when the last leaves, bulkSnapshots' teardown cancels it.
      share({
        connector: () => new ReplaySubject<BulkSnapshot>(1),
        resetOnError: false,
        resetOnComplete: false,
        resetOnRefCountZero: true,
      })
    );
    batch.closed.next(bulk$);
    batch.closed.complete();
  }
}

/** The caller's row of a bulk snapshot as a single run's snapshot. */
function toRunSnapshot(snapshot: BulkSnapshot, index: number): RunSnapshot {
  const entry = snapshot.runs[index];
  const state = entry.state === "pending" ? "inProgress" : entry.state;
  return entry.serviceState === undefined
    ? { state, outputs: entry.outputs }
    : { state, serviceState: entry.serviceState, outputs: entry.outputs };
}
