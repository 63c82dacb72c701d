import { mountOrganisationPanel } from "../../addin/organisation/mountOrganisationPanel.js";
import { forgetOrganisationToken } from "../../addin/organisation/organisationSignIn.js";

/** A token shaped like the local issuer's (unsigned here: the pane only reads the name). */
function tokenFor(user: string): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${part({ alg: "RS256" })}.${part({ preferred_username: user, exp: Date.now() / 1000 + 3600 })}.sig`;
}

describe("Settings in organisation mode (mountOrganisationPanel)", () => {
  let panel: HTMLElement;

  beforeEach(() => {
    forgetOrganisationToken();
    panel = document.createElement("div");
    // The part of the settings view this panel replaces: the key field and its hint.
    panel.innerHTML =
      '<form><div class="key-row"><input id="api-key"></div><p class="hint">Stored here</p><p class="hint">Other hint</p></form>';
    document.body.append(panel);
  });
  afterEach(() => panel.remove());

  it("should hide the key field, say the organisation holds the key, and show who signed in", async () => {
    const fetchSpy = spyOn(window, "fetch").and.callFake(async (input) => {
      expect(String(input)).toBe(`${location.origin}/org/dev-token`);
      return new Response(JSON.stringify({ access_token: tokenFor("alice@example.test") }), {
        status: 200,
      });
    });
    mountOrganisationPanel(panel, {
      mode: "organisation",
      tenantId: "t",
      clientId: "c",
      devSignIn: true,
    });
    expect((panel.querySelector(".key-row") as HTMLElement).hidden).toBe(true);
    expect((panel.querySelector(".key-row + .hint") as HTMLElement).hidden).toBe(true);
    expect(panel.textContent).toContain("Your organisation holds the Spell key");
    expect(panel.textContent).toContain("Other hint");
    expect(panel.querySelector("#organisation-user")!.textContent).toMatch(/^Not signed in/);

    (panel.querySelector("#organisation-dev-user") as HTMLInputElement).value =
      "alice@example.test";
    (panel.querySelector("#organisation-sign-in") as HTMLElement).click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(panel.querySelector("#organisation-user")!.textContent).toBe(
      "Signed in as alice@example.test."
    );
  });
});
