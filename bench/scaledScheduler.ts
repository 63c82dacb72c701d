// A scheduler whose clock runs `1 / scale` times faster than the wall clock, for benchmarks that
// pair it with the emulator's `timeScale`: at scale 0.1 a 60 s spell lasts 6 s on the wall and
// 60 s on this clock, so the client sees the same durations it would see at full scale (only
// network and timer delays are stretched, by 1 / scale: figures err on the late side).
import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from "rxjs";

/**
 * `asyncScheduler` with its clock sped up. Enough for the client's one-shot timers (`timer`,
 * `timeout`, `retry` delays); a periodic action rescheduling itself would run at wall speed.
 */
export class ScaledScheduler implements SchedulerLike {
  constructor(private readonly scale: number) {}

  now(): number {
    return performance.now() / this.scale;
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T
  ): Subscription {
    return asyncScheduler.schedule(work, delay * this.scale, state);
  }
}
