import type { Observable, Subscriber, Subscription } from "rxjs";
import type { ResultStore, RunSnapshot } from "../types.js";

/** Where a shared run remembers its success, and how it leaves the runs in flight. */
export interface SharedRunHome {
  /** The store of results. */
  store: ResultStore;
  /** How long a success is remembered. */
  ttlMs: number;
  /** Takes the run out of the runs in flight (it ended, or its last subscriber left). */
  forget: (run: SharedRun) => void;
}

/**
 * One run of one reuse key, shared by every subscriber while it is known: first the store's
 * answer (a remembered success sends nothing), else `fresh`, sent once for all of them. A later
 * subscriber gets the latest snapshot first. When the last subscriber leaves before the end, the
 * run is unsubscribed (a run still waiting for the store's answer is never sent). A success stays
 * known here until the store has taken it, so that a call arriving in between (a recalculation
 * just after the answer) is answered without a new run. Plain fields rather than a pipeline of
 * operators: a filled-down column makes thousands at once.
 *
 * ```
 * subscriber a:  a──────────────
 * subscriber b:  ───b───────────
 * store:         ─u                      (u: not remembered)
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

  /**
   * @param key the run's reuse key
   * @param home the store, its TTL, and the runs in flight
   * @param fresh sends the run, when the store does not answer it
   */
  constructor(
    readonly key: string,
    private readonly home: SharedRunHome,
    private readonly fresh: () => Observable<RunSnapshot>
  ) {}

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
    return () => this.leave(subscriber);
  }

  /**
   * The store's answer: remembered outputs end the run at once; `undefined` sends `fresh`.
   *
   * @param outputs the remembered outputs, if any
   */
  answer(outputs: Record<string, unknown> | undefined): void {
    if (this.dropped) return;
    if (outputs) {
      this.tell({ state: "success", outputs });
      this.succeed(undefined);
      return;
    }
    let storing: Promise<void> | undefined;
    let run$: Observable<RunSnapshot>;
    try {
      run$ = this.fresh();
    } catch (error) {
      // Answered on a microtask with other runs: a throw here must end this run's callers only.
      return this.fail(error);
    }
    const sent = run$.subscribe({
      next: (snapshot) => {
        if (snapshot.state === "success") storing = this.remember(snapshot.outputs);
        this.tell(snapshot);
      },
      error: (error: unknown) => this.fail(error),
      complete: () => this.succeed(storing),
    });
    // The last subscriber may have left while it was subscribed (a refusal at once).
    if (this.dropped) sent.unsubscribe();
    else this.sent = sent;
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
    // The last subscriber left before the end: the run is cancelled (or never sent).
    this.drop();
    this.sent?.unsubscribe();
  }

  private drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    this.home.forget(this);
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
