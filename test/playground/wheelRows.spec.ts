import fc from "fast-check";
import { scrollStep } from "../../playground/fillDragScroll.js";
import { ROWS_PER_NOTCH, wheelRows } from "../../playground/wheelRows.js";

/** Excel scrolls three rows a wheel notch; a drag scrolls faster the farther beyond the edge. */
describe("wheelRows and scrollStep (the sheet's scrolling as Excel's)", () => {
  it("should scroll three rows a notch: deltaY 100 in pixels, three lines in lines, a page in pages", () => {
    expect(ROWS_PER_NOTCH).toBe(3);
    expect(wheelRows(100, 0, 30)).toBe(3);
    expect(wheelRows(3000, 0, 30)).toBe(90);
    expect(wheelRows(-100, 0, 30)).toBe(-3);
    expect(wheelRows(3, 1, 30)).toBe(3);
    expect(wheelRows(1, 2, 30)).toBe(30);
    // A trackpad's small pixel deltas in proportion.
    expect(wheelRows(10, 0, 30)).toBeCloseTo(0.3, 5);
  });

  it("should scroll a drag faster the farther beyond the edge, slowly just beyond it, never past the fastest", () => {
    expect(scrollStep(1)).toBeLessThan(24 / 4); // under a quarter of a row a frame
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 2000, noNaN: true }),
        fc.double({ min: 0.1, max: 500, noNaN: true }),
        (beyond, more) => {
          expect(scrollStep(beyond + more)).toBeGreaterThanOrEqual(scrollStep(beyond));
          expect(scrollStep(beyond)).toBeGreaterThan(0);
          expect(scrollStep(beyond)).toBeLessThanOrEqual(1500);
        }
      )
    );
    expect(scrollStep(300)).toBe(1500);
  });
});
