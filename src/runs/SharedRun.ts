import type { Observable, SchedulerLike, Subscriber, Subscription } from "rxjs";
import { SpellHttpError } from "../errors/SpellHttpError.js";
import { SpellRunError } from "../errors/SpellRunError.js";
import { SpellRunExpiredError } from "../errors/SpellRunExpiredError.js";
import type { ResultStore, RunSnapshot } from "../types.js";
import { startedRunKey, type StartedRun } from "./StartedRun.js";

/**
 * Sends a new run. It calls `started()` when the run's request goes out (it may have started
 * from then on), and `started(run)` when the service named a run the snapshots cannot show.
 */
export type FreshRun = (started: (run?: StartedRun) => void) => Observable<RunSnapshot>;

/** Where a shared run remembers its success, and how it leaves the runs in flight. */
export interface SharedRunHome {
  /** The store of results. */
  store: ResultStore;
  /** How long a success is remembered. */
  ttlMs: number;
  /** Takes the run out of the runs in flight (it ended, or its last subscriber left). */
  forget: (run: SharedRun) => void;
  /** How long a run whose last subscriber left is kept for one coming back (0: not kept). */
  graceMs: number;
  /** The clock of the grace. */
  scheduler: SchedulerLike;
  /**
   * The store's writes of started runs not landed yet, by key: a new run of the key asks the
   * store only after them (a store may take a few turns to write).
   */
  writes: Map<string, Promise<void>>;
}

/**
 * Watches a run started earlier (after a reload) again, as `fresh` would have shown it;
 * `undefined` when there is nothing to watch (this client cancelled it): `fresh` is sent.
 */
export type ResumeRun = (run: StartedRun) => Observable<RunSnapshot> | undefined;

/**
 * One run of one reuse key, shared by every subscriber while it is known: first the store's
 * answer (a remembered success sends nothing), else `fresh`, sent once for all of them. A later
 * subscriber gets the latest snapshot first. When the last subscriber leaves before the end, the
 * run is kept `graceMs` for a subscriber coming back with the key (a cell whose input was changed
 * back, an Undo then Redo), then unsubscribed (a run still waiting for the store's answer is
 * never sent). Once the service named the run (its id, or its row of a batched bulk run), it is
 * remembered in the store until its success is stored or it failed: after a reload the store's
 * answer is that started run, watched again through `resume` rather than sent. A success stays
 * known here until the store has taken it, so that a call arriving in between (a recalculation
 * just after the answer) is answered without a new run. Plain fields rather than a pipeline of
 * operators: a filled-down column makes thousands at once.
 *
 * ```
 * subscriber a:  a──────────────
 * subscriber b:  ───b───────────
 * store:         ─u                      (u: neither result nor started run remembered)
 * fresh:          ──i──────s|            (sent once)
 * a, b:            ──i──────s|           (b gets i when it joins)
 * ```
 *
 * ## Example
 * ```ts
 * const run = new SharedRun(key, home, () => send());
 * run.join(subscriber); // then run.answer(await store.get(key))
 * ```
 * @internal
 */
export class SharedRun {
  private readonly subscribers = new Set<Subscriber<RunSnapshot>>();
  private latest: RunSnapshot | undefined;
  /** Completed with its success: it only answers late subscribers until the store has it. */
  private succeeded = false;
  /** Errored, or its last subscriber left: it takes no one and sends nothing more. */
  private dropped = false;
  private sent: Subscription | undefined;
  /** The grace after the last subscriber left, while it runs. */
  private grace: Subscription | undefined;
  /** The service named the run (its id, or its row): kept in the store, where it can be. */
  private recorded = false;
  /** Its request went out: from then on it may have started (and be paid for). */
  private mayHaveStarted = false;
  /** The store's writes of the started run, in order (a removal waits for its write). */
  private recording: Promise<void> = Promise.resolve();

  /**
   * @param key the run's reuse key
   * @param home the store, its TTL, and the runs in flight
   * @param fresh sends the run, when the store does not answer it
   * @param resume watches a started run the store remembers; without it none is remembered
   */
  constructor(
    readonly key: string,
    private readonly home: SharedRunHome,
    private readonly fresh: FreshRun,
    private readonly resume?: ResumeRun
  ) {}

  /** It can watch a started run again (a store's remembered one is worth asking for). */
  get resumes(): boolean {
    return this.resume !== undefined;
  }

  /** It can take another subscriber (not dropped). */
  get open(): boolean {
    return !this.dropped;
  }

  /**
   * Adds a subscriber: the latest snapshot at once, then every further one.
   *
   * @param subscriber the subscriber
   * @return its teardown
   */
  join(subscriber: Subscriber<RunSnapshot>): () => void {
    if (this.latest) subscriber.next(this.latest);
    if (this.succeeded) {
      subscriber.complete();
      return noop;
    }
    this.subscribers.add(subscriber);
    // Back within the grace: the run goes on for it.
    this.grace?.unsubscribe();
    this.grace = undefined;
    return () => this.leave(subscriber);
  }

  /**
   * The store's answer: remembered outputs end the run at once; a remembered started run is
   * watched again (`resume`); nothing sends `fresh`.
   *
   * @param outputs the remembered outputs, if any
   * @param started the run started earlier for the key, if any
   */
  answer(outputs: Record<string, unknown> | undefined, started?: StartedRun): void {
    if (this.dropped) return;
    if (outputs) {
      this.tell({ state: "success", outputs });
      this.succeed(undefined);
      return;
    }
    let storing: Promise<void> | undefined;
    let run$: Observable<RunSnapshot> | undefined;
    let resumed = false;
    try {
      run$ = started && this.resume ? this.resume(started) : undefined;
      if (run$) {
        resumed = true;
        this.recorded = true;
        this.mayHaveStarted = true;
      } else {
        run$ = this.fresh((run) => {
          this.mayHaveStarted = true;
          if (run) this.record(run);
        });
      }
    } catch (error) {
      // Answered on a microtask with other runs: a throw here must end this run's callers only.
      return this.fail(error);
    }
    const sent = run$.subscribe({
      next: (snapshot) => {
        if (!this.recorded && snapshot.runId !== undefined) {
          this.mayHaveStarted = true;
          this.record({ runId: snapshot.runId });
        }
        if (snapshot.state === "success") {
          storing = this.remember(snapshot.outputs).then(() => this.forgetStarted());
        }
        this.tell(snapshot);
      },
      error: (error: unknown) => this.ended(error, resumed),
      complete: () => this.succeed(storing),
    });
    // The last subscriber may have left while it was subscribed (a refusal at once).
    if (this.dropped) sent.unsubscribe();
    else this.sent = sent;
  }

  /**
   * The run's error. A run that ended in failure, or a resumed one the service no longer knows
   * (a 404: expired), is forgotten; any other error (the network, a poll limit) keeps the
   * started run, which the next call watches again: it may still succeed, and is paid for.
   */
  private ended(error: unknown, resumed: boolean): void {
    if (error instanceof SpellRunError) this.forgetStarted();
    else if (resumed && error instanceof SpellHttpError && error.status === 404) {
      this.forgetStarted();
      return this.fail(new SpellRunExpiredError(error));
    }
    this.fail(error);
  }

  /** Ends every subscriber with the run's error; a later call sends it again. */
  private fail(error: unknown): void {
    this.drop();
    for (const subscriber of [...this.subscribers]) subscriber.error(error);
  }

  private tell(snapshot: RunSnapshot): void {
    this.latest = snapshot;
    // A copy: a subscriber joining meanwhile got this snapshot already.
    for (const subscriber of [...this.subscribers]) subscriber.next(snapshot);
  }

  /** Ends every subscriber; stays known until the store has the success (`storing`). */
  private succeed(storing: Promise<void> | undefined): void {
    this.succeeded = true;
    // A late subscriber sees what the store would answer (no run id: it started no run).
    if (this.latest?.state === "success") {
      this.latest = { state: "success", outputs: this.latest.outputs };
    }
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of subscribers) subscriber.complete();
    if (storing) void storing.then(() => this.drop());
    else this.drop();
  }

  private leave(subscriber: Subscriber<RunSnapshot>): void {
    if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0 || this.succeeded) {
      return;
    }
    const { graceMs, scheduler } = this.home;
    // Only a run that may have started is kept: one not sent yet (the store has not answered,
    // a queue, an open batch) is never sent for a caller that left, and a caller coming back
    // queues again.
    if (graceMs > 0 && this.sent && (this.mayHaveStarted || this.recorded)) {
      this.grace = scheduler.schedule(() => this.abandon(), graceMs);
      return;
    }
    this.abandon();
  }

  /** The last subscriber left and did not come back: the run is cancelled (or never sent). */
  private abandon(): void {
    this.grace = undefined;
    this.drop();
    this.sent?.unsubscribe();
  }

  private drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    this.home.forget(this);
  }

  /**
   * Remembers the run the service named, for `ttlMs` like a success, in stores that can forget
   * it again (`delete`); a broken store only loses the resume.
   */
  private record(run: StartedRun): void {
    if (this.recorded) return;
    this.recorded = true;
    const { store, ttlMs } = this.home;
    if (!store.delete || !this.resume) return;
    const key = startedRunKey(this.key);
    this.write(() => store.set(key, { startedRun: run }, ttlMs));
  }

  /** The started run ended (its success stored, or it failed): the store forgets it. */
  private forgetStarted(): Promise<void> {
    const { store } = this.home;
    if (!this.recorded || !store.delete) return Promise.resolve();
    this.recorded = false;
    const key = startedRunKey(this.key);
    return this.write(() => store.delete?.(key));
  }

  /** Writes to the store after the earlier writes, known to `home.writes` until it landed. */
  private write(change: () => Promise<void> | void): Promise<void> {
    const { writes } = this.home;
    const written = this.recording.then(change).catch(() => undefined);
    this.recording = written;
    writes.set(this.key, written);
    void written.then(() => {
      if (writes.get(this.key) === written) writes.delete(this.key);
    });
    return written;
  }

  /** Stores a success; a broken store only loses the reuse. */
  private remember(outputs: Record<string, unknown>): Promise<void> {
    const { store, ttlMs } = this.home;
    return Promise.resolve()
      .then(() => store.set(this.key, outputs, ttlMs))
      .catch(() => undefined);
  }
}

function noop(): void {}
