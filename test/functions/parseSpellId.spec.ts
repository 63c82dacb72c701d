import { parseSpellId } from "../../functions/parseSpellId.js";

describe("parseSpellId", () => {
  it("should read trimmed text, also from a 1×1 range", () => {
    expect(parseSpellId(" summarize ")).toBe("summarize");
    expect(parseSpellId([["echo"]])).toBe("echo");
  });

  it("should call an empty cell empty, also when Excel passes it as 0", () => {
    for (const empty of [null, undefined, "", "  ", 0, [[0]], [[null]]]) {
      expect(() => parseSpellId(empty)).toThrow(
        jasmine.objectContaining({
          code: "#VALUE!",
          message: jasmine.stringContaining("spell_id is empty."),
        })
      );
    }
    expect(() => parseSpellId(7)).toThrow(
      jasmine.objectContaining({ message: jasmine.stringContaining("spell_id is number") })
    );
  });
});
