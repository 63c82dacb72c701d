import { TestScheduler, type RunHelpers } from "rxjs/testing";

/** A TestScheduler whose assertions are Jasmine expectations. */
export function createTestScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** `TestScheduler.run` that also hands the scheduler itself to the callback. */
export function marbles(callback: (helpers: RunHelpers, scheduler: TestScheduler) => void): void {
  const scheduler = createTestScheduler();
  scheduler.run((helpers) => callback(helpers, scheduler));
}
