import fc from "fast-check";
import { concat } from "rxjs";
import { inSequence } from "../../src/util/inSequence.js";
import { coldMarble, recorded, unsubscribeFrame } from "./support/sameAsRxjs.js";
import { marbles } from "./support/testScheduler.js";

describe("inSequence", () => {
  it("should subscribe each source when the one before it completed", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold("-a|");
      const b = cold("--b|");
      expectObservable(inSequence(a, b)).toBe("-a--b|");
      expectSubscriptions(a.subscriptions).toBe("^-!");
      expectSubscriptions(b.subscriptions).toBe("--^--!");
    });
  });

  it("should do what rxjs concat does, for generated sources and unsubscribes", () => {
    fc.assert(
      fc.property(
        fc.array(coldMarble, { maxLength: 3 }),
        unsubscribeFrame,
        (sources, unsubscribeAt) => {
          expect(
            recorded(sources, (observables) => inSequence(...observables), unsubscribeAt)
          ).toEqual(recorded(sources, (observables) => concat(...observables), unsubscribeAt));
        }
      )
    );
  });
});
