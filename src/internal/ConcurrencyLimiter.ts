import { Observable, type Subscription } from "rxjs";

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

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`maxInFlight must be at least 1, got ${limit}`);
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
      let holdsSlot = false;
      let inner: Subscription | undefined;
      const begin = () => {
        holdsSlot = true;
        this.running++;
        inner = work$.subscribe(subscriber);
      };
      if (this.running < this.limit) begin();
      else this.queue.push(begin);

      return () => {
        if (holdsSlot) {
          holdsSlot = false;
          inner?.unsubscribe();
          this.running--;
          this.startQueued();
        } else {
          const position = this.queue.indexOf(begin);
          if (position >= 0) this.queue.splice(position, 1);
        }
      };
    });
  }

  private startQueued(): void {
    while (this.running < this.limit && this.queue.length > 0) {
      const begin = this.queue.shift() as () => void;
      begin();
    }
  }
}
