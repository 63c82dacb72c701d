import { Observable, asyncScheduler, type Subscription } from "rxjs";
import { checkLimit } from "./checkLimit.js";
import { heldUntilHandOn } from "./handOnSlotsAfter.js";

/**
 * A client-wide limit on work in flight. `schedule(work$)` returns a cold Observable that
 * subscribes to `work$` only once a slot is free (first come, first served) and frees the slot
 * when `work$` ends or the subscriber leaves. Work waiting in the queue has done nothing yet, so
 * leaving the queue costs nothing.
 *
 * ```
 * limit 1:   a$ ──a──|
 *            b$         ──b──|      (queued until a$ ends)
 * ```
 *
 * ## Example
 * ```ts
 * const limiter = new ConcurrencyLimiter(8);
 * limiter.schedule(startRun$).subscribe();
 * ```
 * @internal
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly limit: number,
    option = "maxInFlight"
  ) {
    checkLimit(limit, option);
  }

  /** Work currently holding a slot. */
  get inFlight(): number {
    return this.running;
  }

  /** Work waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  schedule<T>(work$: Observable<T>): Observable<T> {
    return new Observable<T>((subscriber) => {
      let inner: Subscription | undefined;
      let release: (() => void) | undefined;
      const leaveQueue = this.acquire((releaseSlot) => {
        release = releaseSlot;
        inner = work$.subscribe({
          next: (value) => subscriber.next(value),
          // Work that ends hands its slot on at once.
          error: (error: unknown) => {
            releaseSlot();
            subscriber.error(error);
          },
          complete: () => {
            releaseSlot();
            subscriber.complete();
          },
        });
      });
      return () => {
        leaveQueue();
        inner?.unsubscribe();
        // Work that is unsubscribed hands its slot on a moment later (the next task): when many
        // callers are unsubscribed at once (a `merge` of 20,000 runs), those queued behind it
        // leave the queue first, so none starts during the teardown.
        if (release) this.withStartsHeld(release);
      };
    });
  }

  private startsHeld = false;

  /**
   * Runs `work` (which frees a slot) and hands free slots on in the next task, once per teardown
   * (`asyncScheduler`, which the runs' timers load anyway, rather than the asap scheduler's
   * 1.5 KB).
   */
  private withStartsHeld(work: () => void): void {
    if (this.startsHeld) {
      work();
      return;
    }
    this.startsHeld = true;
    work();
    asyncScheduler.schedule(() => {
      this.startsHeld = false;
      this.startQueued();
    });
  }

  /**
   * The slot itself, for work that is not an Observable or that must keep its slot after its
   * subscriber left (a request keeps it until its `fetch` has really ended). `onSlot` is called
   * once a slot is free, with the function that frees it (idempotent).
   *
   * ## Example
   * ```ts
   * const leaveQueue = limiter.acquire((release) => fetch(url).finally(release));
   * ```
   * @param onSlot called with `release` when the slot is given
   * @return leaves the queue if still waiting (no-op once the slot was given)
   */
  acquire(onSlot: (release: () => void) => void): () => void {
    let state: "queued" | "holding" | "done" = "queued";
    const release = () => {
      if (state !== "holding") return;
      state = "done";
      this.running--;
      this.startQueued();
    };
    const begin = () => {
      state = "holding";
      this.running++;
      onSlot(release);
    };
    if (this.running < this.limit) begin();
    else this.queue.push(begin);
    return () => {
      if (state !== "queued") return;
      state = "done";
      const position = this.queue.indexOf(begin);
      if (position >= 0) this.queue.splice(position, 1);
    };
  }

  /** Hands free slots to queued work (later, inside `handOnSlotsAfter` or a teardown). @internal */
  startQueued(): void {
    if (this.startsHeld) return;
    if (heldUntilHandOn(this)) return;
    while (this.running < this.limit && this.queue.length > 0) {
      const begin = this.queue.shift() as () => void;
      begin();
    }
  }
}
