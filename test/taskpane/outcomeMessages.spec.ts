import { SpellHttpError } from "../../src";
import { outcomeMessages } from "../../taskpane/bulk/outcomeMessages.js";

describe("the task pane's outcome sentences", () => {
  it("should say a spell the service does not know is not found, on bulkStart as on start", () => {
    for (const endpoint of ["bulkStart", "start"] as const) {
      const message = outcomeMessages.refused(
        new SpellHttpError(404, { message: 'Unknown spell "summarise"' }, "POST", endpoint),
        "summarise"
      );
      expect(message).toBe(
        'Spell "summarise" was not found (HTTP 404) (Unknown spell "summarise"). ' +
          "Check the spell ID on the spell's API tab."
      );
    }
  });

  it("should say a 404 without the service's explanation without request jargon", () => {
    const message = outcomeMessages.refused(
      new SpellHttpError(404, "", "POST", "bulkStart"),
      "no-such-spell"
    );
    expect(message).toBe(
      `Spell "no-such-spell" was not found (HTTP 404). Check the spell ID on the spell's API tab.`
    );
    expect(message).not.toContain("/spells/");
  });

  it("should keep the other refusals in the shared words", () => {
    const error = new SpellHttpError(429, "", "POST", "bulkStart");
    expect(outcomeMessages.refused(error, "summarize")).toBe(error.message);
  });

  it("should name output cells typed into among the reasons a result was kept", () => {
    expect(outcomeMessages.done("Reviews", "C", "E", 2)).toContain(
      "their output cells typed into, during the run"
    );
    expect(outcomeMessages.done("Reviews", "C", "E", 1)).toContain(
      "1 result could not be placed: its row was deleted or changed, or its output cells typed into"
    );
    expect(outcomeMessages.done("Reviews", "C", "E", 0)).toBe(
      "Results are in Reviews, columns C–E."
    );
  });

  it("should name one column as a column (a bulk whose rows all failed has only its status)", () => {
    expect(outcomeMessages.done("Reviews", "C", "C", 0)).toBe("Results are in Reviews, column C.");
  });
});
