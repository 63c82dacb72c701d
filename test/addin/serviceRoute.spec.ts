import { serviceAddresses } from "../../addin/serviceRoute.js";
import { loadSettings } from "../../addin/settings/loadSettings.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";

describe("serviceAddresses (through the add-in's host, or directly)", () => {
  const settings = {
    baseUrl: "https://api.example.com/v1",
    pollBaseUrl: "https://poll.example.com",
  };

  it("should call the add-in host's forwarding paths on the page's origin, whatever Settings hold", () => {
    expect(
      serviceAddresses(
        { ...settings, serviceRoute: "addinHost" },
        "https://excel-spells.example.com"
      )
    ).toEqual({
      baseUrl: "https://excel-spells.example.com/spell-api",
      pollBaseUrl: "https://excel-spells.example.com/spell-poll",
    });
  });

  it("should call Settings' addresses directly", () => {
    expect(serviceAddresses({ ...settings, serviceRoute: "direct" }, "https://x.example")).toEqual(
      settings
    );
  });

  it("should have no address through a host when there is no page (Node, an opaque origin)", () => {
    expect(serviceAddresses({ ...settings, serviceRoute: "addinHost" }, undefined)).toEqual({
      baseUrl: "",
      pollBaseUrl: "",
    });
    expect(serviceAddresses({ ...settings, serviceRoute: "addinHost" }, "null").baseUrl).toBe("");
  });
});

describe("the serviceRoute setting", () => {
  beforeEach(() => useKeyValueStorage(memoryStorage()));
  afterAll(() => useKeyValueStorage(undefined));

  it("should store addinHost or direct and refuse anything else, saving nothing then", async () => {
    expect((await saveSettings({ serviceRoute: "addinHost" })).serviceRoute).toBe("addinHost");
    await expectAsync(
      saveSettings({ serviceRoute: "proxy" as unknown as "direct", maxInFlight: 3 })
    ).toBeRejectedWithError(/serviceRoute must be "addinHost" or "direct"/);
    const stored = await loadSettings();
    expect(stored.serviceRoute).toBe("addinHost");
    expect(stored.maxInFlight).toBe(8);
  });
});
