import { merge } from "rxjs";
import { SpellError } from "../../src/errors/SpellError.js";
import { ConcurrencyLimiter } from "../../src/util/ConcurrencyLimiter.js";
import { marbles } from "./support/testScheduler.js";

describe("ConcurrencyLimiter", () => {
  it("should start work beyond the limit only when a slot frees up, first come first served", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limiter = new ConcurrencyLimiter(2);
      const a = cold("---a|");
      const b = cold("-b|");
      const c = cold("--c|");
      const d = cold("d|");
      expectObservable(limiter.schedule(a)).toBe("---a|");
      expectObservable(limiter.schedule(b)).toBe("-b|");
      expectObservable(limiter.schedule(c)).toBe("----c|"); // b ends at 2
      expectObservable(limiter.schedule(d)).toBe("----d|"); // a ends at 4
      expectSubscriptions(c.subscriptions).toBe("--^--!");
      expectSubscriptions(d.subscriptions).toBe("----^!");
    });
  });

  it("should never subscribe to work that leaves the queue, and free the slot of work that is unsubscribed", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limiter = new ConcurrencyLimiter(1);
      const running = cold("-----a|");
      const queued = cold("b|");
      const next = cold("c|");
      expectObservable(limiter.schedule(running), "---!").toBe("---");
      expectObservable(limiter.schedule(queued), "--!").toBe("--");
      expectObservable(limiter.schedule(next)).toBe("---c|");
      expectSubscriptions(running.subscriptions).toBe("^--!");
      expectSubscriptions(queued.subscriptions).toBe([]);
      expectSubscriptions(next.subscriptions).toBe("---^!");
    });
  });

  it("should free the slot of work that errors", () => {
    marbles(({ cold, expectObservable }) => {
      const limiter = new ConcurrencyLimiter(1);
      expectObservable(limiter.schedule(cold("-#"))).toBe("-#");
      expectObservable(limiter.schedule(cold("a|"))).toBe("-a|");
    });
  });

  it("should count work in flight and waiting", () => {
    const limiter = new ConcurrencyLimiter(1);
    marbles(({ cold }) => {
      limiter.schedule(cold("--a|")).subscribe();
      limiter.schedule(cold("--a|")).subscribe();
      expect([limiter.inFlight, limiter.waiting]).toEqual([1, 1]);
    });
    expect([limiter.inFlight, limiter.waiting]).toEqual([0, 0]);
  });

  it("should refuse a limit below 1", () => {
    expect(() => new ConcurrencyLimiter(0)).toThrowError(SpellError, /at least 1/);
  });
});

describe("ConcurrencyLimiter when many callers leave at once", () => {
  it("should start none of the work queued behind the ones unsubscribed (a merge of 20,000 runs)", () => {
    marbles(({ cold, expectSubscriptions }) => {
      const limiter = new ConcurrencyLimiter(8);
      const works = Array.from({ length: 20_000 }, () => cold("-----a|"));
      const all = merge(...works.map((work) => limiter.schedule(work)));
      const subscription = all.subscribe();
      cold("--a|").subscribe(() => subscription.unsubscribe());
      for (const [index, work] of works.entries()) {
        expectSubscriptions(work.subscriptions).toBe(index < 8 ? "^-!" : []);
      }
    });
  });

  it("should hand the slot of unsubscribed work on in the same frame when nothing else leaves", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limiter = new ConcurrencyLimiter(1);
      const running = cold("-----a|");
      const next = cold("c|");
      expectObservable(limiter.schedule(running), "--!").toBe("--");
      expectObservable(limiter.schedule(next)).toBe("--c|");
      expectSubscriptions(next.subscriptions).toBe("--^!");
    });
  });
});
