import { buildInputs } from "../../functions/buildInputs.js";

describe("buildInputs (SPELL.INPUTS)", () => {
  it("should pair names with values as Excel passes a repeating matrix argument", () => {
    const text = buildInputs([[["text"]], [["Hello"]], [["language"]], [["fr"]], [["n"]], [[3]]]);
    expect(JSON.parse(text)).toEqual({ text: "Hello", language: "fr", n: 3 });
  });

  it("should turn a range value into a list and an empty cell into empty text", () => {
    const text = buildInputs([[["items"]], [["a"], ["b"]], [["note"]], [[null]]]);
    expect(JSON.parse(text)).toEqual({ items: ["a", "b"], note: "" });
  });

  it("should refuse an empty name passed as 0, and send a value passed as 0 as 0", () => {
    expect(() => buildInputs([[[0]], [["Hello"]]])).toThrow(
      jasmine.objectContaining({
        code: "#VALUE!",
        message: jasmine.stringContaining("argument 1 must be an input name (text), not empty"),
      })
    );
    // SPELL.INPUTS("text", A2) with A2 empty: null on current builds, 0 on some (office-js #1951).
    expect(JSON.parse(buildInputs([[["text"]], [[null]]]))).toEqual({ text: "" });
    expect(JSON.parse(buildInputs([[["text"]], [[0]]]))).toEqual({ text: 0 });
  });

  it("should send an entity's display text and refuse an image", () => {
    const entity = { type: "Entity", text: "Contoso Ltd", properties: {} };
    expect(JSON.parse(buildInputs([[["company"]], [[entity]]]))).toEqual({
      company: "Contoso Ltd",
    });
    expect(() =>
      buildInputs([[["p"]], [[{ type: "WebImage", address: "https://x/a.png" }]]])
    ).toThrow(
      jasmine.objectContaining({ code: "#VALUE!", message: jasmine.stringContaining("an image") })
    );
  });

  it("should reject an odd number of arguments", () => {
    expect(() => buildInputs([[["text"]], [["Hello"]], [["language"]]])).toThrow(
      jasmine.objectContaining({
        code: "#VALUE!",
        message: jasmine.stringContaining("got 3 arguments"),
      })
    );
  });

  it("should reject a name that is not text or is given twice", () => {
    expect(() => buildInputs([[[5]], [["x"]]])).toThrow(
      jasmine.objectContaining({
        message: jasmine.stringContaining("argument 1 must be an input name"),
      })
    );
    expect(() => buildInputs([[["a"]], [[1]], [["a"]], [[2]]])).toThrow(
      jasmine.objectContaining({ message: jasmine.stringContaining('names "a" twice') })
    );
  });

  it("should reject inputs longer than an Excel value holds", () => {
    expect(() => buildInputs([[["text"]], [["x".repeat(33_000)]]])).toThrow(
      jasmine.objectContaining({
        code: "#VALUE!",
        message: jasmine.stringContaining("more than an Excel value"),
      })
    );
  });
});
