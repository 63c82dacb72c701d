import { parseOutputNames } from "../../functions/parseOutputNames.js";

describe("parseOutputNames", () => {
  it("should give undefined (all outputs) for an omitted or empty argument", () => {
    for (const omitted of [null, undefined, "", "  ", [[""]], [[null, ""]]]) {
      expect(parseOutputNames(omitted)).toBeUndefined();
    }
  });

  it("should read one name and comma-separated names", () => {
    expect(parseOutputNames("summary")).toEqual(["summary"]);
    expect(parseOutputNames(" summary , words,")).toEqual(["summary", "words"]);
  });

  it("should read a range of names in row order, skipping empty cells", () => {
    expect(
      parseOutputNames([
        ["summary", ""],
        ["words", null],
      ])
    ).toEqual(["summary", "words"]);
    expect(parseOutputNames([["label, score"]])).toEqual(["label", "score"]);
  });

  it('should read 0 as an empty cell (builds that pass empty cells as 0), never as output "0"', () => {
    expect(parseOutputNames(0)).toBeUndefined();
    expect(parseOutputNames([[0]])).toBeUndefined();
    expect(parseOutputNames([["summary", 0, "words"]])).toEqual(["summary", "words"]);
  });

  it("should read an entity cell as its display text", () => {
    expect(parseOutputNames([[{ type: "Entity", text: "summary", properties: {} }]])).toEqual([
      "summary",
    ]);
  });
});
