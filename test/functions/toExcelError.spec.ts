import {
  SpellHttpError,
  SpellNetworkError,
  SpellProtocolError,
  SpellRunError,
  SpellTimeoutError,
} from "../../src/index.js";
import { excelError } from "../../functions/excelError.js";
import { MissingApiKeyError } from "../../addin/MissingApiKeyError.js";
import { ServiceAddressNotSetError } from "../../addin/ServiceAddressNotSetError.js";
import { toExcelError } from "../../functions/toExcelError.js";

describe("toExcelError", () => {
  const apiKey = "sk-secret-key-123456";
  const context = { spellId: "summarize", baseUrl: "http://127.0.0.1:3001", apiKey };

  function mapped(error: unknown): { code: string; message: string } {
    return toExcelError(error, context) as unknown as { code: string; message: string };
  }

  it("should show the organisation gateway's own words for a sign-in or budget refusal, and keep 'rejected the API key' for others", () => {
    const expired = mapped(
      new SpellHttpError(
        401,
        { code: "token_expired", message: "Your sign-in has expired: sign in again." },
        "POST",
        "start"
      )
    );
    expect(expired).toEqual(
      jasmine.objectContaining({
        code: "#N/A",
        message: "Your sign-in has expired: sign in again.",
      })
    );
    const budget = mapped(
      new SpellHttpError(
        403,
        {
          code: "budget_exhausted",
          message: "Your daily limit of 200 runs is reached; resets at 2026-11-27 00:00 UTC.",
        },
        "POST",
        "bulkStart"
      )
    );
    expect(budget.message).toBe(
      "Your daily limit of 200 runs is reached; resets at 2026-11-27 00:00 UTC."
    );
    const service = mapped(new SpellHttpError(403, { message: "forbidden" }, "POST", "start"));
    expect(service.message).toContain("rejected the API key");
  });

  it("should pass Excel errors through unchanged", () => {
    const error = excelError("#VALUE!", "bad inputs");
    expect(toExcelError(error, context)).toBe(error);
  });

  it("should say where to set a missing key", () => {
    const error = mapped(new MissingApiKeyError());
    expect(error.code).toBe("#N/A");
    expect(error.message).toContain("No Spell Run API key");
    expect(error.message).toContain("Home tab");
  });

  it("should say which service address is not set, and where to set it", () => {
    const error = mapped(new ServiceAddressNotSetError(["pollBaseUrl"]));
    expect(error.code).toBe("#N/A");
    expect(error.message).toBe(
      "The Spell Run service address is not set (Poll base URL). Open Spell Run (Home tab) and enter it under Settings."
    );
  });

  it("should explain a rejected key (401 and 403) without showing it", () => {
    for (const status of [401, 403]) {
      const body = { message: `key ${apiKey} is not valid` };
      const error = mapped(new SpellHttpError(status, body, "POST", "start"));
      expect(error.code).toBe("#N/A");
      expect(error.message).toContain(`rejected the API key (HTTP ${status})`);
      expect(error.message).not.toContain(apiKey);
    }
  });

  it("should name the spell that was not found (404 on start)", () => {
    const error = mapped(new SpellHttpError(404, { message: "no spell" }, "POST", "start"));
    expect(error.code).toBe("#N/A");
    expect(error.message).toContain('Spell "summarize" was not found');
  });

  it("should name the spell that was not found when batched runs meet it on bulkStart", () => {
    const error = mapped(new SpellHttpError(404, { message: "no spell" }, "POST", "bulkStart"));
    expect(error.code).toBe("#N/A");
    expect(error.message).toContain('Spell "summarize" was not found');
    expect(error.message).not.toContain("no longer known");
  });

  it("should answer rejected inputs (400, 413) with #VALUE!", () => {
    expect(
      mapped(new SpellHttpError(400, { message: "inputs.text is required" }, "POST", "start"))
    ).toEqual(
      jasmine.objectContaining({
        code: "#VALUE!",
        message: jasmine.stringContaining("inputs.text is required"),
      })
    );
    expect(mapped(new SpellHttpError(413, {}, "POST", "start")).code).toBe("#VALUE!");
  });

  it("should explain rate limiting after retries and service failures", () => {
    expect(mapped(new SpellHttpError(429, {}, "POST", "start")).message).toContain(
      "rate limiting (HTTP 429)"
    );
    expect(mapped(new SpellHttpError(503, {}, "POST", "start")).message).toContain(
      "failed (HTTP 503)"
    );
  });

  it("should give the reason of a run that ended in failure or error", () => {
    const failure = mapped(new SpellRunError("failure", { reason: "The model refused." }));
    expect(failure.code).toBe("#N/A");
    expect(failure.message).toBe('Spell "summarize" ended in failure: The model refused..');
    expect(mapped(new SpellRunError("error", { error: "Boom" })).message).toContain(
      "ended in error: Boom"
    );
  });

  it("should explain an unreachable service, a timeout and a strange answer", () => {
    const network = mapped(
      new SpellNetworkError("POST", "start", new TypeError("Failed to fetch"))
    );
    expect(network.message).toContain(
      "Could not reach the Spell Run service at http://127.0.0.1:3001"
    );
    expect(mapped(new SpellTimeoutError("POST", "start", 120_000)).message).toContain(
      "within 120 s"
    );
    expect(mapped(new SpellProtocolError("GET", "getRun", "no state", {})).message).toContain(
      "does not understand"
    );
  });

  it("should never show the key, whatever the error says", () => {
    const error = mapped(new Error(`fetch to https://x?key=${apiKey} failed`));
    expect(error.code).toBe("#N/A");
    expect(error.message).not.toContain(apiKey);
    expect(error.message).toContain("[redacted]");
  });
});
