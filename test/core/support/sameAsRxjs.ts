import fc from "fast-check";
import type { Observable, Subscription } from "rxjs";
import { TestScheduler } from "rxjs/testing";

/** What a stream did in virtual time: its notifications and each source's subscriptions. */
export interface Recorded {
  notifications: unknown[];
  subscriptions: unknown[];
}

/**
 * Runs `build` over cold sources made from `marbles` in virtual time, unsubscribing at
 * `unsubscribeAt` (a frame) if given, and records what happened.
 */
export function recorded(
  marbles: readonly string[],
  build: (sources: Observable<string>[]) => Observable<unknown>,
  unsubscribeAt?: number
): Recorded {
  const scheduler = new TestScheduler(() => undefined);
  const notifications: unknown[] = [];
  let sources: ReturnType<typeof scheduler.createColdObservable<string>>[] = [];
  scheduler.run(({ cold }) => {
    sources = marbles.map((marble) => cold(marble));
    const subscription: Subscription = build(sources).subscribe({
      next: (value) => notifications.push([scheduler.now(), "next", value]),
      error: (error: unknown) => notifications.push([scheduler.now(), "error", error]),
      complete: () => notifications.push([scheduler.now(), "complete"]),
    });
    if (unsubscribeAt !== undefined) {
      scheduler.schedule(() => subscription.unsubscribe(), unsubscribeAt);
    }
  });
  return { notifications, subscriptions: sources.map((source) => source.subscriptions) };
}

/** A cold marble: frames of nothing or a value, then complete, error or nothing (never ends). */
export const coldMarble: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom("-", "-", "a", "b", "c"), { maxLength: 8 }),
    fc.constantFrom("|", "#", "")
  )
  .map(([frames, end]) => frames.join("") + end);

/** A frame to unsubscribe at, or none. */
export const unsubscribeFrame: fc.Arbitrary<number | undefined> = fc.option(
  fc.integer({ min: 0, max: 10 }),
  { nil: undefined }
);
