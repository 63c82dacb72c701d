import { expectErrorShape, httpRequest } from "./support/emulatorHttp.js";
import { useEmulator } from "./support/useEmulator.js";

describe("emulator errors that tell the user what to do", () => {
  const fixture = useEmulator();

  it("should list the spells there are for an unknown spell", async () => {
    const result = await fixture.spell.start("summarise", { text: "x" }, true);
    expectErrorShape(result, 404, "spell_not_found");
    expect(result.body.message).toBe(
      'Unknown spell "summarise"; this emulator has: summarize, sentiment, extract-emails, ' +
        "translate, echo, sleep, always-fails, always-errors, checksum"
    );
    const bulk = await fixture.spell.bulkStart("nope", [{}]);
    expectErrorShape(bulk, 404, "spell_not_found");
    expect(bulk.body.message).toContain("this emulator has: summarize,");
  });

  it("should say to send Content-Type: application/json on a 415", async () => {
    const result = await httpRequest(`${fixture.emulator.baseUrl}/spells/start`, {
      headers: { ...fixture.spell.auth, "content-type": "text/plain" },
      body: '{"spellId":"echo","wait":true,"inputs":{}}',
    });
    expectErrorShape(result, 415, "unsupported_media_type");
    expect(result.body.message).toContain('"Content-Type: application/json"');
  });

  it("should say that getRun is on the poll port when called on the base port", async () => {
    const result = await httpRequest(`${fixture.emulator.baseUrl}/spells/getRun?runId=run_1`, {
      method: "GET",
      headers: fixture.spell.auth,
    });
    expectErrorShape(result, 404, "wrong_host");
    expect(result.body.message).toContain(fixture.emulator.pollBaseUrl);
    // Other unknown paths stay plain 404s.
    const unknown = await fixture.spell.post("/spells/getRuns", {});
    expectErrorShape(unknown, 404, "route_not_found");
  });
});
