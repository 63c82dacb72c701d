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

  it("should read 0 as an empty name and skip rows of only empty cells or 0 (empty cells passed as 0)", () => {
    expect(
      parseTable([
        ["text", 0, "n"],
        ["Hello", 0, 0],
        [0, 0, 0],
        [null, 5, ""],
        ["", 0, null],
      ])
    ).toEqual([{ text: "Hello", n: 0 }, undefined, undefined, undefined]);
  });

  it("should send an entity's display text and refuse an image", () => {
    expect(
      parseTable([
        ["company"],
        [{ type: "LinkedEntity", id: { entityId: "x" }, text: "Contoso Ltd" }],
      ])
    ).toEqual([{ company: "Contoso Ltd" }]);
    expect(() =>
      parseTable([["picture"], [{ type: "WebImage", address: "https://example.com/a.png" }]])
    ).toThrow(
      jasmine.objectContaining({ code: "#VALUE!", message: jasmine.stringContaining("an image") })
    );
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
        [0, 0],
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
