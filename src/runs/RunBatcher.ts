import { Observable, timer, type Subscriber, type Subscription } from "rxjs";
import { runEndedText } from "../errors/runEndedText.js";
import { SpellRunError } from "../errors/SpellRunError.js";
import type { BulkSnapshot, RunSnapshot, RunState } from "../types.js";
import type { BulkContext } from "./BulkContext.js";
import { bulkSnapshots, type BulkChunk } from "./bulkSnapshots.js";
import type { StartedBulkRow, StartedRun } from "./StartedRun.js";

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
  subscriber: Subscriber<RunSnapshot>;
  /** Its row in the bulk run, set when the batch closes; -1 before (and when it had left). */
  index: number;
  /** Its subscription ended (it left, or its run ended): told nothing more. */
  ended: boolean;
  /** The state (and the service's word for it) last told; `undefined` before the first. */
  state?: RunState;
  serviceState?: string;
  /** Told when its bulkStart goes out, then its row once the service accepted the bulk. */
  started?: (run?: StartedRun) => void;
}

/** An open (or closed) batch of one spell. */
interface Batch {
  spellId: string;
  /** Every caller that joined, in order (those that left before the close too). */
  members: Member[];
  /** Callers still there before the close; after it, callers still listening. */
  present: number;
  window?: Subscription;
  isClosed: boolean;
  /** The one subscription to the batch's bulk run, from the close until no caller listens. */
  bulk?: Subscription;
  /** The bulk run's group, once accepted. */
  groupId?: string;
  /** The latest snapshot of its bulk run, told to a caller rejoining it later. */
  latest?: BulkSnapshot;
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
 * reaches the batcher. The bulk run is subscribed once per batch, and each snapshot is handed to
 * the callers' own subscribers in a loop: no operators per caller.
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
  /** The batches whose bulk run is watched, by group id: a caller rejoining one joins it. */
  private readonly watched = new Map<string, Batch>();
  /** Groups this batcher cancelled (see `hasCancelled`). */
  private readonly cancelled = new Set<string>();

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
   * @param started told when its bulkStart goes out, then its row once the service accepted it
   * @return a cold Observable of this call's snapshots
   */
  run(
    spellId: string,
    inputs: Record<string, unknown>,
    started?: (run?: StartedRun) => void
  ): Observable<RunSnapshot> {
    return new Observable<RunSnapshot>((subscriber) => {
      const batch = this.join(spellId);
      const member: Member = { inputs, subscriber, index: -1, ended: false, started };
      batch.members.push(member);
      batch.present++;
      if (batch.members.length >= this.settings.maxSize) this.close(batch);
      return () => this.leave(batch, member);
    });
  }

  /**
   * A row of a bulk run started earlier (before a reload), watched again as `run` shows it:
   * the rows of one group that callers rejoin share one poll of it, and it is cancelled, as a
   * batch is, when the last of them leaves before it finished. A 404 means the group expired.
   *
   * ## Example
   * ```ts
   * batcher.rejoin({ spellId: "echo", groupId: "g-1", row: 2, size: 5 }).subscribe(console.log);
   * ```
   * @param started the row and its group
   * @return a cold Observable of this row's snapshots
   */
  rejoin(started: StartedBulkRow): Observable<RunSnapshot> {
    return new Observable<RunSnapshot>((subscriber) => {
      const member: Member = { inputs: {}, subscriber, index: started.row, ended: false };
      // A group this batcher still watches (its caller left and came back) is joined, so that
      // it is cancelled only when none of its callers, old or rejoined, listens.
      const watched = this.watched.get(started.groupId);
      if (watched) {
        watched.members.push(member);
        watched.present++;
        if (watched.latest) tellMembers([member], watched.latest);
        return () => this.leave(watched, member);
      }
      const batch: Batch = {
        spellId: started.spellId,
        members: [member],
        present: 1,
        isClosed: true,
        groupId: started.groupId,
      };
      this.watch(batch, [{ size: started.size, groupId: started.groupId }]);
      return () => this.leave(batch, member);
    });
  }

  /** The open batch of the spell, or a new one whose window starts now. */
  private join(spellId: string): Batch {
    const existing = this.open.get(spellId);
    if (existing) return existing;
    const batch: Batch = { spellId, members: [], present: 0, isClosed: false };
    this.open.set(spellId, batch);
    batch.window = timer(this.settings.windowMs, this.context().scheduler).subscribe(() =>
      this.close(batch)
    );
    return batch;
  }

  /**
   * A caller's subscription ended (it left, or its run ended). Before the close it is left out
   * of the bulkStart, and when none is left nothing is sent; after it, the bulk run goes on while
   * any caller listens, and when the last one goes its unsubscribe cancels an unfinished group.
   */
  private leave(batch: Batch, member: Member): void {
    if (member.ended) return;
    member.ended = true;
    if (!batch.isClosed) {
      if (--batch.present === 0) this.abandon(batch);
      return;
    }
    if (member.index >= 0 && --batch.present === 0) {
      // Unfinished: the unsubscribe cancels it, and its rows have nothing left to watch.
      if (batch.groupId !== undefined && !batch.latest?.done) this.cancelled.add(batch.groupId);
      batch.bulk?.unsubscribe();
    }
  }

  /**
   * This batcher cancelled the group (every caller left before it finished): a row of it
   * remembered as started has nothing to watch, and is sent anew.
   *
   * ## Example
   * ```ts
   * if (batcher.hasCancelled("g-1")) send();
   * ```
   * @param groupId the group's id
   * @return whether it was cancelled here
   */
  hasCancelled(groupId: string): boolean {
    return this.cancelled.has(groupId);
  }

  /** Every caller left before the window closed: nothing is sent. */
  private abandon(batch: Batch): void {
    batch.window?.unsubscribe();
    batch.isClosed = true;
    if (this.open.get(batch.spellId) === batch) this.open.delete(batch.spellId);
  }

  /**
   * Ends the window: the callers still there get their rows, and the batch's bulk run is
   * subscribed once, its snapshots handed to each caller's own subscriber (no pipeline per
   * caller: a filled-down column makes thousands).
   */
  private close(batch: Batch): void {
    if (batch.isClosed) return;
    batch.isClosed = true;
    batch.window?.unsubscribe();
    if (this.open.get(batch.spellId) === batch) this.open.delete(batch.spellId);
    const inputs: Record<string, unknown>[] = [];
    for (const member of batch.members) {
      if (member.ended) continue;
      member.index = inputs.length;
      inputs.push(member.inputs);
    }
    batch.present = inputs.length;
    if (inputs.length === 0) return;
    for (const member of listening(batch.members)) member.started?.();
    this.watch(batch, [{ size: inputs.length, inputs }]);
  }

  /**
   * Subscribes the batch's bulk run once, handing its snapshots to the callers; a rejoined group
   * (no inputs: polled, not sent) has no visibility grace, its group accepted long ago.
   */
  private watch(batch: Batch, chunks: BulkChunk[]): void {
    const context = this.context();
    const rejoining = chunks[0].inputs === undefined;
    if (batch.groupId !== undefined) this.watched.set(batch.groupId, batch);
    const unwatch = () => {
      if (batch.groupId !== undefined && this.watched.get(batch.groupId) === batch) {
        this.watched.delete(batch.groupId);
      }
    };
    const subscription = bulkSnapshots(
      rejoining ? { ...context, visibilityGraceMs: 0 } : context,
      batch.spellId,
      chunks
    ).subscribe({
      next: (snapshot) => {
        batch.latest = snapshot;
        if (batch.groupId === undefined && snapshot.groupIds.length > 0) {
          batch.groupId = snapshot.groupIds[0];
          this.watched.set(batch.groupId, batch);
          tellStarted(batch, batch.groupId, chunks[0].size);
        }
        tellMembers(batch.members, snapshot);
      },
      error: (error: unknown) => {
        unwatch();
        for (const member of listening(batch.members)) member.subscriber.error(error);
      },
      complete: () => {
        unwatch();
        for (const member of listening(batch.members)) member.subscriber.complete();
      },
    });
    subscription.add(unwatch);
    // Every caller may have gone while it was subscribed (an error at once): then it is dropped.
    if (batch.present === 0) subscription.unsubscribe();
    else batch.bulk = subscription;
  }
}

/** Tells each caller still listening its row of the accepted bulk run. */
function tellStarted(batch: Batch, groupId: string, size: number): void {
  for (const member of listening(batch.members)) {
    member.started?.({ spellId: batch.spellId, groupId, row: member.index, size });
  }
}

/** The callers of a closed batch still listening (a copy: telling one may end others). */
function listening(members: readonly Member[]): Member[] {
  return members.filter((member) => member.index >= 0 && !member.ended);
}

/**
 * Tells each caller listening its own row of a bulk snapshot, as `run` in polling mode would:
 * nothing before the service accepted the bulk, then a snapshot per change of state (or of the
 * service's word for it), completing after `success`; `failure` or `error` is the caller's own
 * `SpellRunError`.
 */
function tellMembers(members: readonly Member[], snapshot: BulkSnapshot): void {
  if (snapshot.groupIds.length === 0) return;
  for (const member of members) {
    if (member.index < 0 || member.ended) continue;
    const entry = snapshot.runs[member.index];
    const state: RunState = entry.state === "pending" ? "inProgress" : entry.state;
    if (
      member.state !== undefined &&
      member.state === state &&
      member.serviceState === entry.serviceState
    ) {
      continue;
    }
    member.state = state;
    member.serviceState = entry.serviceState;
    if (state === "failure" || state === "error") {
      // A state the service named its own way ("cancelled") is kept in the message.
      const detail =
        entry.serviceState === undefined
          ? undefined
          : runEndedText(state, undefined, entry.serviceState);
      member.subscriber.error(new SpellRunError(state, entry.outputs, undefined, detail));
      continue;
    }
    member.subscriber.next(
      entry.serviceState === undefined
        ? { state, outputs: entry.outputs }
        : { state, serviceState: entry.serviceState, outputs: entry.outputs }
    );
    if (state !== "inProgress") member.subscriber.complete();
  }
}
