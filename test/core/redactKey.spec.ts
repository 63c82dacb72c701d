import { redactKey, SpellHttpError } from "../../src/index.js";

describe("redactKey", () => {
  const key = "sk/live-secret";

  it("should replace the key verbatim and JSON-escaped, as the client does in answers", () => {
    expect(redactKey(`fetch https://x?key=${key} failed`, key)).toBe(
      "fetch https://x?key=[redacted] failed"
    );
    expect(redactKey('{"echo":"sk\\/live\\u002dsecret"}', key)).toBe('{"echo":"[redacted]"}');
  });

  it("should leave texts alone without a key, or with one too short to be a secret", () => {
    expect(redactKey("Spell took too long", undefined)).toBe("Spell took too long");
    expect(redactKey("Spell took too long", "too")).toBe("Spell took too long");
  });
});

describe("SpellHttpError.serviceMessage", () => {
  it("should be the error body's message, trimmed, when it is a non-empty text", () => {
    const error = new SpellHttpError(400, { message: " spell not found " }, "POST", "start");
    expect(error.serviceMessage).toBe("spell not found");
    expect(error.message).toBe("POST /spells/start failed with HTTP 400: spell not found");
    expect(new SpellHttpError(400, { message: 3 }, "POST", "start").serviceMessage).toBeUndefined();
    expect(new SpellHttpError(502, "<html>", "GET", "getRun").serviceMessage).toBeUndefined();
  });
});
