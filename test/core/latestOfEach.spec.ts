import fc from "fast-check";
import { combineLatest } from "rxjs";
import { latestOfEach } from "../../src/util/latestOfEach.js";
import { coldMarble, recorded, unsubscribeFrame } from "./support/sameAsRxjs.js";
import { marbles } from "./support/testScheduler.js";

describe("latestOfEach", () => {
  it("should emit the latest value of each source once all have emitted, and complete when all complete", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold("-a----c--|");
      const b = cold("----b-----|");
      expectObservable(latestOfEach([a, b])).toBe("----x-y---|", {
        x: ["a", "b"],
        y: ["c", "b"],
      });
      expectSubscriptions(a.subscriptions).toBe("^--------!");
      expectSubscriptions(b.subscriptions).toBe("^---------!");
    });
  });

  it("should error with the first error and unsubscribe the other sources", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold("-a--#");
      const b = cold("--b-----|");
      expectObservable(latestOfEach([a, b])).toBe("--x-#", { x: ["a", "b"] });
      expectSubscriptions(b.subscriptions).toBe("^---!");
    });
  });

  it("should complete at once for no sources", () => {
    marbles(({ expectObservable }) => {
      expectObservable(latestOfEach([])).toBe("|");
    });
  });

  it("should do what rxjs combineLatest does, for generated sources and unsubscribes", () => {
    fc.assert(
      fc.property(
        fc.array(coldMarble, { maxLength: 3 }),
        unsubscribeFrame,
        (sources, unsubscribeAt) => {
          expect(recorded(sources, latestOfEach, unsubscribeAt)).toEqual(
            recorded(sources, (observables) => combineLatest(observables), unsubscribeAt)
          );
        }
      )
    );
  });
});
