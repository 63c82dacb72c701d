import { concatMap, type Observable } from "rxjs";
import type { TestScheduler } from "rxjs/testing";
import { SpellCallTimeoutError } from "../../src/errors/SpellCallTimeoutError.js";
import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { RateLimitPause } from "../../src/http/RateLimitPause.js";
import { stopAfter } from "../../src/operators/stopAfter.js";
import { stopOnAbort } from "../../src/operators/stopOnAbort.js";
import { marbles } from "./support/testScheduler.js";

describe("stopAfter", () => {
  it("should end the stream with its error when the limit passes, unsubscribing the source", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const source = cold("--a--b------c|");
      const limit = new SpellCallTimeoutError('run of "x"', 9);
      expectObservable(source.pipe(stopAfter(9, () => limit, scheduler))).toBe(
        "--a--b---#",
        undefined,
        limit
      );
      expectSubscriptions(source.subscriptions).toBe("^--------!");
    });
  });

  it("should not restart the limit with each value, and pass a stream that ends in time", () => {
    marbles(({ cold, expectObservable }, scheduler) => {
      const error = () => new SpellCallTimeoutError("bulk", 5);
      expectObservable(cold("-a-b-c-d|").pipe(stopAfter(5, error, scheduler))).toBe(
        "-a-b-#",
        undefined,
        new SpellCallTimeoutError("bulk", 5)
      );
      expectObservable(cold("-a|").pipe(stopAfter(5, error, scheduler))).toBe("-a|");
    });
  });
});

describe("stopOnAbort", () => {
  it("should unsubscribe the source on abort, then error with the signal's reason", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const controller = new AbortController();
      const reason = new Error("user left");
      scheduler.schedule(() => controller.abort(reason), 4);
      const source = cold("-a-b-----c|");
      expectObservable(source.pipe(stopOnAbort(controller.signal))).toBe(
        "-a-b#",
        undefined,
        reason
      );
      expectSubscriptions(source.subscriptions).toBe("^---!");
    });
  });

  it("should error at once and subscribe nothing when the signal is already aborted", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const controller = new AbortController();
      controller.abort(new Error("too late"));
      const source = cold("-a|");
      expectObservable(source.pipe(stopOnAbort(controller.signal))).toBe(
        "#",
        undefined,
        new Error("too late")
      );
      expectSubscriptions(source.subscriptions).toBe([]);
    });
  });
});

describe("RateLimitPause", () => {
  const refused = (retryAfterMs?: number) =>
    new SpellHttpError(429, {}, "GET", "getRun", retryAfterMs);

  function pauseFor(scheduler: TestScheduler): RateLimitPause {
    return new RateLimitPause(scheduler, 60_000, 3);
  }

  it("should hold every other request of the client until one 429's Retry-After has passed", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const pause = pauseFor(scheduler);
      const a = cold("-#", undefined, refused(5));
      const b = cold("-b|");
      const c = cold("-c|");
      expectObservable(a.pipe(pause.gate())).toBe("-#", undefined, refused(5));
      // b is due at 3, while the pause (frames 1 to 6) is on; c is due at 8, after it.
      expectObservable(cold("---x|").pipe(dueThenSent(b, pause))).toBe("-------b|");
      expectObservable(cold("--------x|").pipe(dueThenSent(c, pause))).toBe("---------c|");
      expectSubscriptions(b.subscriptions).toBe("------^-!");
      expectSubscriptions(c.subscriptions).toBe("--------^-!");
    });
  });

  it("should pause for the fallback without Retry-After, and never for other errors", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const pause = pauseFor(scheduler);
      expectObservable(cold("#", undefined, refused()).pipe(pause.gate())).toBe(
        "#",
        undefined,
        refused()
      );
      const b = cold("b|");
      expectObservable(cold("x|").pipe(dueThenSent(b, pause))).toBe("---b|");
      expectSubscriptions(b.subscriptions).toBe("---^!");
    });
    marbles(({ cold, expectObservable, expectSubscriptions }, scheduler) => {
      const pause = pauseFor(scheduler);
      const unavailable = new SpellHttpError(503, {}, "GET", "getRun", 5);
      expectObservable(cold("#", undefined, unavailable).pipe(pause.gate())).toBe(
        "#",
        undefined,
        unavailable
      );
      const b = cold("b|");
      expectObservable(cold("x|").pipe(dueThenSent(b, pause))).toBe("b|");
      expectSubscriptions(b.subscriptions).toBe("^!");
    });
  });
});

/** Sends `request` through the pause when `due` emits (the moment the request is due). */
function dueThenSent<T>(request: Observable<T>, pause: RateLimitPause) {
  return (due: Observable<string>) => due.pipe(concatMap(() => request.pipe(pause.gate<T>())));
}
