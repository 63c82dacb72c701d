import fc from "fast-check";
import { columnName } from "../../playground/excel/a1.js";
import {
  atInsertionPoint,
  cycleReference,
  pointedReference,
} from "../../playground/excel/referenceAtCaret.js";

// Microsoft, "Create a simple formula in Excel": type "=", select a cell or type its address,
// enter an operator, select the next cell. "Switch between relative, absolute and mixed
// references": F4 switches a reference through $A$1, A$1, $A1 and A1.
describe("referenceAtCaret (Point mode and F4 on a formula being typed)", () => {
  it("should offer a pointed reference after =, an operator, ( or , of a formula only", () => {
    expect(atInsertionPoint("=", 1)).toBeTrue();
    expect(atInsertionPoint('=SPELL.RUN("sentiment",', 23)).toBeTrue();
    expect(atInsertionPoint('=SPELL.RUN("sentiment", ', 24)).toBeTrue();
    expect(atInsertionPoint("=SUM(", 5)).toBeTrue();
    expect(atInsertionPoint("=A1+", 4)).toBeTrue();
    expect(atInsertionPoint("=A1", 3)).toBeFalse();
    expect(atInsertionPoint("=A1+B2", 3)).toBeFalse();
    expect(atInsertionPoint("1+", 2)).toBeFalse();
  });

  it("should make one cell's reference, or a range's from its top left, dragged either way", () => {
    expect(pointedReference({ row: 1, column: 0 }, { row: 1, column: 0 })).toBe("A2");
    expect(pointedReference({ row: 1, column: 0 }, { row: 9, column: 0 })).toBe("A2:A10");
    expect(pointedReference({ row: 9, column: 2 }, { row: 1, column: 0 })).toBe("A2:C10");
  });

  it("should cycle the reference at the caret A1 → $A$1 → A$1 → $A1 → A1", () => {
    const seen: string[] = [];
    let text = "=A1+B2";
    for (let press = 0; press < 4; press++) {
      const cycled = cycleReference(text, 2);
      if (!cycled) throw new Error("no reference at the caret");
      text = cycled.text;
      seen.push(text.slice(cycled.start, cycled.end));
    }
    expect(seen).toEqual(["$A$1", "A$1", "$A1", "A1"]);
    expect(text).toBe("=A1+B2");
    expect(cycleReference("=A1+B2", 6)).toEqual({ text: "=A1+$B$2", start: 4, end: 8 });
  });

  it("should give both corners of a range the type of the first", () => {
    expect(cycleReference("=SUM(A2:$A$10)", 13)?.text).toBe("=SUM($A$2:$A$10)");
  });

  it("should leave function names, text in quotes and a caret away from references alone", () => {
    expect(cycleReference("=LOG10(2)", 4)).toBeNull();
    expect(cycleReference('="A1"&B2', 3)).toBeNull();
    expect(cycleReference("=A1 + 1", 7)).toBeNull();
    expect(cycleReference("A1", 1)).toBeNull();
  });

  it("should come back to any reference after four F4 presses, each a different type, the rest of the formula unchanged", () => {
    const reference = fc
      .record({
        column: fc.integer({ min: 0, max: 16_383 }),
        row: fc.integer({ min: 1, max: 1_048_576 }),
      })
      .map(({ column, row }) => `${columnName(column)}${row}`);
    fc.assert(
      fc.property(
        fc.constantFrom("=", "=SUM(", '=SPELL.RUN("sentiment", ', "=1+"),
        reference,
        fc.constantFrom("", ")", "+B2", ', "label")'),
        (before, cell, after) => {
          let text = before + cell + after;
          const caret = before.length + cell.length;
          const types = new Set<string>();
          for (let press = 0; press < 4; press++) {
            const cycled = cycleReference(text, caret);
            if (!cycled) return false;
            text = cycled.text;
            expect(text.slice(0, before.length)).toBe(before);
            expect(text.slice(cycled.end)).toBe(after);
            types.add(
              text
                .slice(cycled.start, cycled.end)
                .replace(/[A-Z]+/, "A")
                .replace(/[0-9]+/, "1")
            );
          }
          return text === before + cell + after && types.size === 4;
        }
      )
    );
  });
});
