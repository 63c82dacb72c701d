/**
 * One sleeper woken by the next `poke`: the job's loop sleeps until a window settles, a write
 * ends or a cancel begins. A poke with no sleeper is lost (the loop checks its state first).
 *
 * ## Example
 * ```ts
 * const wakeup = new Wakeup();
 * while (queue.length >= maxWindows) await wakeup.sleep();
 * // elsewhere, when a window settles:
 * wakeup.poke();
 * ```
 * @internal
 */
export class Wakeup {
  private wake: (() => void) | undefined;

  /** @return a promise resolved by the next `poke` */
  sleep(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** Wakes the sleeper, if any. */
  poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
