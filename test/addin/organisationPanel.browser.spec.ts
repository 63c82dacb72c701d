import { mountOrganisationPanel } from "../../addin/organisation/mountOrganisationPanel.js";
import { forgetOrganisationToken } from "../../addin/organisation/organisationSignIn.js";
import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import { DEFAULT_SETTINGS } from "../../addin/settings/defaultSettings.js";
import { registerFluent } from "../../taskpane/ui/registerFluent.js";
import { mountSettingsView } from "../../taskpane/ui/settingsView.js";

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

  describe("with the whole settings view", () => {
    /** The real Settings form, its stored route "direct" (the organisation panel must not keep it). */
    const mountSettings = async () => {
      registerFluent();
      const stored: SpellSettings = { ...DEFAULT_SETTINGS, serviceRoute: "direct" };
      await mountSettingsView(panel, {
        loadSettings: async () => ({ ...stored }),
        saveSettings: async (patch) => Object.assign(stored, patch),
        testConnection: async () => ({
          ok: true,
          reachable: true,
          keyAccepted: true,
          message: "ok",
        }),
        clearRememberedResults: async () => undefined,
        recalculate: async () => undefined,
      });
    };
    /** Whether a user sees an element: neither it nor a parent is hidden. */
    const shown = (selector: string) => {
      const found = panel.querySelector(selector);
      return found !== null && found.closest("[hidden]") === null;
    };

    it("should offer the key header and the direct route outside organisation mode", async () => {
      await mountSettings();
      expect(shown("#auth-header")).toBe(true);
      expect(shown("#service-route")).toBe(true);
      expect(shown("#api-key")).toBe(true);
    });

    it("should hide the key header and the direct route in organisation mode, calling through the server", async () => {
      await mountSettings();
      mountOrganisationPanel(panel, {
        mode: "organisation",
        tenantId: "t",
        clientId: "c",
        devSignIn: false,
      });
      expect(shown("#auth-header")).toBe(false);
      expect(shown("#service-route")).toBe(false);
      expect(shown("#service-addresses")).toBe(false);
      expect(shown("#api-key")).toBe(false);
      // Saved from here, the route is the server's, never "direct".
      expect((panel.querySelector("#service-route") as HTMLElement & { value: string }).value).toBe(
        "addinHost"
      );
      const visible = [...panel.querySelectorAll("label")]
        .filter((label) => label.closest("[hidden]") === null)
        .map((label) => label.textContent);
      expect(visible).not.toContain("Send the key as");
      expect(visible).not.toContain("Reach the service");
    });
  });
});
