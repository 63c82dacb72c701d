import { parseInputs } from "../../functions/parseInputs.js";

/** The Excel error a call throws (code and message), or undefined when it does not throw. */
function thrown(call: () => unknown): { code: string; message: string } | undefined {
  try {
    call();
  } catch (error) {
    return error as { code: string; message: string };
  }
  return undefined;
}

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

  it("should read a 2×2 range as names over values when its first row can be names", () => {
    expect(
      parseInputs([
        ["text", "language"],
        ["Hello", "fr"],
      ])
    ).toEqual({ text: "Hello", language: "fr" });
  });

  it("should read a 2×2 range as names beside values when only its first column can be names", () => {
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
  });

  it("should read an ambiguous 2×2 range of text as names over values, as documented", () => {
    expect(
      parseInputs([
        ["text", "Hello"],
        ["n", "m"],
      ])
    ).toEqual({ text: "n", Hello: "m" });
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
  });
});
