import fc from "fast-check";
import { startWith, take } from "rxjs";
import { startWithValue } from "../../src/operators/startWithValue.js";
import { coldMarble, recorded, unsubscribeFrame } from "./support/sameAsRxjs.js";
import { marbles } from "./support/testScheduler.js";

describe("startWithValue", () => {
  it("should emit the value on subscribing, then the source", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("--a-b|");
      expectObservable(source.pipe(startWithValue("v"))).toBe("v-a-b|");
      expectSubscriptions(source.subscriptions).toBe("^----!");
    });
  });

  it("should never subscribe the source when the subscriber left on the value", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("--a|");
      expectObservable(source.pipe(startWithValue("v"), take(1))).toBe("(v|)");
      expectSubscriptions(source.subscriptions).toBe([]);
    });
  });

  it("should do what rxjs startWith does, for generated sources, takes and unsubscribes", () => {
    fc.assert(
      fc.property(
        coldMarble,
        fc.integer({ min: 1, max: 4 }),
        unsubscribeFrame,
        (source, count, unsubscribeAt) => {
          expect(
            recorded(
              [source],
              ([observable]) => observable.pipe(startWithValue("v"), take(count)),
              unsubscribeAt
            )
          ).toEqual(
            recorded(
              [source],
              ([observable]) => observable.pipe(startWith("v"), take(count)),
              unsubscribeAt
            )
          );
        }
      )
    );
  });
});
