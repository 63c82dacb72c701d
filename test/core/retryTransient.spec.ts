import { defer } from "rxjs";
import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { parseRetryAfter } from "../../src/util/parseRetryAfter.js";
import { DEFAULT_RETRY, retryDelayMs, retryTransient } from "../../src/operators/retryTransient.js";
import { createTestScheduler } from "./support/testScheduler.js";

describe("retryTransient", () => {
  const noJitter = { limit: 3, baseDelayMs: 10, maxDelayMs: 25, jitter: 0 };
  const unavailable = new SpellHttpError(503, {}, "GET", "getRun");

  it("should retry with exponential backoff capped at maxDelayMs, then give up", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-#", undefined, unavailable);
      // fail at 1, wait 10 → 11; fail 12, wait 20 → 32; fail 33, wait 25 (capped 40) → 58; fail 59
      expectObservable(request.pipe(retryTransient("getRun", noJitter))).toBe(
        "59ms #",
        undefined,
        unavailable
      );
      expectSubscriptions(request.subscriptions).toBe(["^!", "11ms ^!", "32ms ^!", "58ms ^!"]);
    });
  });

  it("should pass the answer of a successful retry through", () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      let attempt = 0;
      const request = cold("-#", undefined, unavailable);
      const ok = cold("-a|", { a: "ok" });
      const flaky = defer(() => (attempt++ < 2 ? request : ok));
      // fail at 1 → 11, fail 12 → 32, answer 33
      expectObservable(flaky.pipe(retryTransient("getRun", noJitter))).toBe("33ms a|", { a: "ok" });
    });
  });

  it("should wait Retry-After instead of the backoff", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const tooMany = new SpellHttpError(429, {}, "POST", "start", 2000);
      const request = cold("-#", undefined, tooMany);
      expectObservable(request.pipe(retryTransient("start", { ...noJitter, limit: 1 }))).toBe(
        "2002ms #",
        undefined,
        tooMany
      );
      expectSubscriptions(request.subscriptions).toBe(["^!", "2001ms ^!"]);
    });
  });

  it("should clamp a huge Retry-After to maxRetryAfterMs", () => {
    createTestScheduler().run(({ cold, expectSubscriptions, expectObservable }) => {
      const tooMany = new SpellHttpError(429, {}, "GET", "getRun", 86_400_000);
      const request = cold("-#", undefined, tooMany);
      const retried = request.pipe(
        retryTransient("getRun", { ...noJitter, limit: 1, maxRetryAfterMs: 50 })
      );
      expectObservable(retried).toBe("52ms #", undefined, tooMany);
      expectSubscriptions(request.subscriptions).toBe(["^!", "51ms ^!"]);
    });
  });

  it("should fail at once, without retrying, on a 500 from start (the run may exist)", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const serverError = new SpellHttpError(500, {}, "POST", "start");
      const request = cold("-#", undefined, serverError);
      expectObservable(request.pipe(retryTransient("start", noJitter))).toBe(
        "-#",
        undefined,
        serverError
      );
      expectSubscriptions(request.subscriptions).toBe("^!");
    });
  });

  it("should fail at once on 401 and 404 for reads", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const unauthorized = new SpellHttpError(401, {}, "GET", "getRun");
      const request = cold("-#", undefined, unauthorized);
      expectObservable(request.pipe(retryTransient("getRun", noJitter))).toBe(
        "-#",
        undefined,
        unauthorized
      );
      expectSubscriptions(request.subscriptions).toBe("^!");
    });
  });

  it("should stop retrying (no further attempt) on unsubscribe during a backoff", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const request = cold("-#", undefined, unavailable);
      expectObservable(request.pipe(retryTransient("getRun", noJitter)), "^ 14ms !").toBe("");
      expectSubscriptions(request.subscriptions).toBe(["^!", "11ms ^!"]);
    });
  });

  describe("retryDelayMs", () => {
    const settings = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000, jitter: 0 };

    it("should double per retry up to the cap", () => {
      expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, undefined, settings))).toEqual([
        100, 200, 400, 800, 1000, 1000,
      ]);
    });

    it("should take off up to `jitter` of the delay at random", () => {
      const jittered = { ...settings, jitter: 0.5 };
      expect(retryDelayMs(3, undefined, { ...jittered, random: () => 0 })).toBe(400);
      expect(retryDelayMs(3, undefined, { ...jittered, random: () => 0.5 })).toBe(300);
      expect(retryDelayMs(3, undefined, { ...jittered, random: () => 0.999 })).toBe(200);
    });

    it("should use Retry-After as is, clamped between 0 and maxRetryAfterMs", () => {
      expect(retryDelayMs(1, 3000, { ...settings, maxRetryAfterMs: 60_000 })).toBe(3000);
      expect(retryDelayMs(1, 120_000, { ...settings, maxRetryAfterMs: 60_000 })).toBe(60_000);
      expect(retryDelayMs(1, -5, settings)).toBe(0);
    });
  });

  describe("parseRetryAfter", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");

    it("should read delta seconds", () => {
      expect(parseRetryAfter("7", now)).toBe(7000);
      expect(parseRetryAfter(" 0 ", now)).toBe(0);
    });

    it("should read an HTTP date relative to now, a past date as 0", () => {
      expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
      expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    });

    it("should ignore missing or unreadable values", () => {
      expect(parseRetryAfter(null, now)).toBeUndefined();
      expect(parseRetryAfter("", now)).toBeUndefined();
      expect(parseRetryAfter("soon", now)).toBeUndefined();
      expect(parseRetryAfter("-3", now)).toBeUndefined();
    });
  });
});
