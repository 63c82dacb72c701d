import { labelledSelect } from "../../taskpane/ui/labelledSelect.js";

describe("labelledSelect", () => {
  it("should name the select by its label and hold the options in order, in a div.field", () => {
    const { field, select } = labelledSelect("auth-header", "Send the key as", [
      ["authorization", "Authorization: Bearer <key>"],
      ["x-api-key", "x-api-key: <key>"],
    ]);
    const label = field.querySelector("label");
    expect(field.tagName).toBe("DIV");
    expect(field.className).toBe("field");
    expect([...field.children]).toEqual([label!, select]);
    expect(label?.id).toBe("auth-header-label");
    expect(label?.getAttribute("for")).toBe("auth-header");
    expect(label?.textContent).toBe("Send the key as");
    expect(select.tagName).toBe("FLUENT-SELECT");
    expect(select.id).toBe("auth-header");
    expect(select.getAttribute("aria-labelledby")).toBe("auth-header-label");
    const options = [...select.querySelectorAll("fluent-option")];
    expect(options.map((option) => option.getAttribute("value"))).toEqual([
      "authorization",
      "x-api-key",
    ]);
    // Text, never markup: "<key>" stays literal.
    expect(options.map((option) => option.textContent)).toEqual([
      "Authorization: Bearer <key>",
      "x-api-key: <key>",
    ]);
  });
});
