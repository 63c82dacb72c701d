import { parseTable } from "../../functions/parseTable.js";

describe("parseTable (SPELL.BULK)", () => {
  it("should give one inputs object per row under the names", () => {
    expect(
      parseTable([
        ["text", "language"],
        ["Hello", "fr"],
        ["Bye", "de"],
      ])
    ).toEqual([
      { text: "Hello", language: "fr" },
      { text: "Bye", language: "de" },
    ]);
  });

  it("should keep empty rows as undefined and ignore unnamed columns", () => {
    expect(
      parseTable([
        ["text", ""],
        ["Hello", "x"],
        ["", ""],
        [null, "y"],
      ])
    ).toEqual([{ text: "Hello" }, undefined, undefined]);
  });

  it("should reject a table without data rows or without names", () => {
    expect(() => parseTable([["text"]])).toThrow(jasmine.objectContaining({ code: "#VALUE!" }));
    expect(() => parseTable("text")).toThrow(jasmine.objectContaining({ code: "#VALUE!" }));
    expect(() =>
      parseTable([
        ["", ""],
        [1, 2],
      ])
    ).toThrow(jasmine.objectContaining({ message: jasmine.stringContaining("no input names") }));
    expect(() =>
      parseTable([
        ["a", "a"],
        [1, 2],
      ])
    ).toThrow(jasmine.objectContaining({ message: jasmine.stringContaining('"a" twice') }));
  });
});
