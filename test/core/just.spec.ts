import { just } from "../../src/util/just.js";
import { marbles } from "./support/testScheduler.js";

describe("just", () => {
  it("should emit its value and complete, on every subscription", () => {
    marbles(({ expectObservable }) => {
      const one = just({ n: 1 });
      expectObservable(one).toBe("(a|)", { a: { n: 1 } });
      expectObservable(one).toBe("(a|)", { a: { n: 1 } });
    });
  });
});
