import { parseInputs } from "../../functions/parseInputs.js";
import { thrown } from "./support/thrown.js";

describe("parseInputs", () => {
  it("should read JSON object text, as a scalar or a 1×1 range", () => {
    expect(parseInputs('{"text":"Hello","n":2}')).toEqual({ text: "Hello", n: 2 });
    expect(parseInputs([['  {"text":"Hello"} ']])).toEqual({ text: "Hello" });
  });

  it("should read the text SPELL.INPUTS returns", () => {
    expect(parseInputs('{"text":"Hello","language":"fr"}')).toEqual({
      text: "Hello",
      language: "fr",
    });
  });

  it("should read a two-row range as names over values", () => {
    expect(
      parseInputs([
        ["text", "language", "n"],
        ["Hello", "fr", 3],
      ])
    ).toEqual({
      text: "Hello",
      language: "fr",
      n: 3,
    });
  });

  it("should read a two-column range as names beside values", () => {
    expect(
      parseInputs([
        ["text", "Hello"],
        ["language", "fr"],
        ["n", true],
      ])
    ).toEqual({
      text: "Hello",
      language: "fr",
      n: true,
    });
  });

  it("should read a 2×2 range the one way it can be read", () => {
    // The first row holds a number: only names beside values.
    expect(
      parseInputs([
        ["text", 7],
        ["n", 5],
      ])
    ).toEqual({ text: 7, n: 5 });
    expect(
      parseInputs([
        ["n", 5],
        ["m", 6],
      ])
    ).toEqual({ n: 5, m: 6 });
    // The first column holds a number: only names over values.
    expect(
      parseInputs([
        ["text", "n"],
        [4, "x"],
      ])
    ).toEqual({ text: 4, n: "x" });
  });

  it("should refuse a 2×2 range that reads both ways, saying how to make it unambiguous", () => {
    const ambiguous = [
      [
        ["text", "language"],
        ["Hello world", "fr"],
      ],
      [
        ["text", "Hello world"],
        ["language", "fr"],
      ],
      [
        ["text", "n"],
        ["Hello", 3],
      ],
      // An empty second column (null, or 0 on some builds): {text: "Hello"} or {text: "", Hello: ""}.
      [
        ["text", null],
        ["Hello", null],
      ],
      [
        ["text", 0],
        ["Hello", 0],
      ],
      // Values not filled in yet: {text: "", language: ""} or {text: "language"}.
      [
        ["text", "language"],
        [null, ""],
      ],
    ];
    for (const range of ambiguous) {
      const error = thrown(() => parseInputs(range));
      expect(error?.code).withContext(JSON.stringify(range)).toBe("#VALUE!");
      expect(error?.message).toContain(
        "reads both as names over values and as names beside values"
      );
      expect(error?.message).toContain("SPELL.INPUTS");
      expect(error?.message).toContain("empty column");
    }
  });

  it("should read an ambiguous 2×2 once an empty column or row is added to it", () => {
    for (const empty of [null, "", 0]) {
      expect(
        parseInputs([
          ["text", "language", empty],
          ["Hello world", "fr", empty],
        ])
      ).toEqual({ text: "Hello world", language: "fr" });
      expect(
        parseInputs([
          ["text", "Hello world"],
          ["language", "fr"],
          [empty, empty],
        ])
      ).toEqual({ text: "Hello world", language: "fr" });
    }
  });

  it("should read 0 where a name is expected as an empty cell (builds that pass empty cells as 0)", () => {
    expect(
      parseInputs([
        ["text", 0, "language"],
        ["Hello", 0, "fr"],
      ])
    ).toEqual({ text: "Hello", language: "fr" });
    expect(
      parseInputs([
        ["text", "Hello"],
        [0, 0],
        ["n", 0],
      ])
    ).toEqual({ text: "Hello", n: 0 });
    expect(
      thrown(() =>
        parseInputs([
          ["text", 0, "c"],
          ["Hello", "orphan", 1],
        ])
      )?.message
    ).toContain('empty name next to the text "orphan"');
  });

  it("should send a 0 where a value is expected as 0 (it may be a typed zero)", () => {
    expect(
      parseInputs([
        ["text", "n", "m"],
        ["", 0, null],
      ])
    ).toEqual({ text: "", n: 0, m: "" });
  });

  it("should send a data type's plain value, and refuse one that has none", () => {
    expect(
      parseInputs([
        ["company", "share", "label"],
        [
          {
            type: "Entity",
            text: "Contoso Ltd",
            properties: { Ticker: { type: "String", basicValue: "CTSO" } },
          },
          { type: "FormattedNumber", basicValue: 0.25, numberFormat: "0%" },
          { type: "String", basicValue: "x" },
        ],
      ])
    ).toEqual({ company: "Contoso Ltd", share: 0.25, label: "x" });
    const error = thrown(() =>
      parseInputs([
        ["picture", "n", ""],
        [{ type: "WebImage", address: "https://example.com/a.png" }, 1, ""],
      ])
    );
    expect(error?.code).toBe("#VALUE!");
    expect(error?.message).toContain("holds an image");
  });

  it("should skip unused columns of a generous selection and turn empty values into empty text", () => {
    expect(
      parseInputs([
        ["text", "note", "", null],
        ["Hello", null, "", null],
      ])
    ).toEqual({
      text: "Hello",
      note: "",
    });
  });

  it("should reject empty inputs, saying what is accepted", () => {
    for (const empty of [null, undefined, "", [[""]], [[null]]]) {
      const error = thrown(() => parseInputs(empty));
      expect(error?.code).toBe("#VALUE!");
      expect(error?.message).toContain("inputs is empty");
      expect(error?.message).toContain("2-row range");
    }
  });

  it("should reject text that is not a JSON object", () => {
    expect(thrown(() => parseInputs("hello"))?.message).toContain("not valid JSON");
    expect(thrown(() => parseInputs("[1,2]"))?.message).toContain("JSON array, not an object");
    expect(thrown(() => parseInputs("42"))?.message).toContain("the number 42");
  });

  it("should reject numbers and logical values", () => {
    expect(thrown(() => parseInputs(42))?.message).toContain("inputs is the number 42");
    expect(thrown(() => parseInputs(true))?.message).toContain("logical value TRUE");
  });

  it("should reject ranges of other shapes, naming the shape", () => {
    const error = thrown(() =>
      parseInputs([
        ["a", "b", "c"],
        [1, 2, 3],
        [4, 5, 6],
      ])
    );
    expect(error?.code).toBe("#VALUE!");
    expect(error?.message).toContain("3×3 range");
  });

  it("should reject names that are numbers, repeated, or empty beside a value", () => {
    expect(
      thrown(() =>
        parseInputs([
          [1, 2, 3],
          ["a", "b", "c"],
        ])
      )?.message
    ).toContain("names must be text");
    expect(
      thrown(() =>
        parseInputs([
          ["a", "a", "b"],
          [1, 2, 3],
        ])
      )?.message
    ).toContain('names "a" twice');
    expect(
      thrown(() =>
        parseInputs([
          ["a", "", "b"],
          [1, 2, 3],
        ])
      )?.message
    ).toContain("empty name");
    expect(
      thrown(() =>
        parseInputs([
          [{ type: "Entity", text: "a" }, "b", "c"],
          [1, 2, 3],
        ])
      )?.message
    ).toContain("a data type value (Entity); names must be text");
  });
});
