import type { SpellSettings } from "../../addin/settings/SpellSettings.js";
import { checkServiceAddress } from "../../addin/settings/checkServiceAddress.js";
import {
  DEFAULT_SETTINGS,
  defaultServiceAddresses,
  EMULATOR_ADDRESSES,
} from "../../addin/settings/defaultSettings.js";
import { loadSettings } from "../../addin/settings/loadSettings.js";
import { onSettingsChanged } from "../../addin/settings/onSettingsChanged.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { SettingsError } from "../../addin/SettingsError.js";
import { memoryStorage, keyValueStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";

describe("settings", () => {
  beforeEach(() => useKeyValueStorage(memoryStorage()));
  afterAll(() => useKeyValueStorage(undefined));

  it("should start from the defaults: the local emulator, 8 in flight, 24 h", async () => {
    expect(await loadSettings()).toEqual({ ...DEFAULT_SETTINGS });
    expect(DEFAULT_SETTINGS).toEqual({
      apiKey: "",
      baseUrl: "http://127.0.0.1:3001",
      pollBaseUrl: "http://127.0.0.1:3002",
      // Node: no add-in host to go through; the emulator is called directly.
      serviceRoute: "direct",
      authHeader: "authorization",
      maxInFlight: 8,
      rememberMs: 86_400_000,
      batchRuns: true,
      runsBeforeAsking: 100,
      dailyRunCap: 1000,
    });
  });

  it("should start from the build's addresses, not set (empty) when a build named none", () => {
    expect(defaultServiceAddresses({ baseUrl: "", pollBaseUrl: "" })).toEqual({
      baseUrl: "",
      pollBaseUrl: "",
    });
    expect(
      defaultServiceAddresses({ baseUrl: "https://api.example.com", pollBaseUrl: "" })
    ).toEqual({ baseUrl: "https://api.example.com", pollBaseUrl: "" });
    // Not built by webpack (Node specs, benchmarks): the emulator.
    expect(defaultServiceAddresses({ baseUrl: undefined, pollBaseUrl: undefined })).toEqual({
      ...EMULATOR_ADDRESSES,
    });
  });

  it("should read and take batchRuns by its earlier name, coalesceRuns, the current name winning", async () => {
    await keyValueStorage().setItem("spellrun.settings", JSON.stringify({ coalesceRuns: false }));
    expect((await loadSettings()).batchRuns).toBe(false);
    await keyValueStorage().setItem(
      "spellrun.settings",
      JSON.stringify({ batchRuns: true, coalesceRuns: false })
    );
    expect((await loadSettings()).batchRuns).toBe(true);
    const saved = await saveSettings({ coalesceRuns: false });
    expect(saved.batchRuns).toBe(false);
    expect(Object.keys(saved)).not.toContain("coalesceRuns");
    expect(JSON.parse((await keyValueStorage().getItem("spellrun.settings")) ?? "{}")).toEqual(
      jasmine.objectContaining({ batchRuns: false })
    );
  });

  it("should keep an address stored as empty not set", async () => {
    await keyValueStorage().setItem(
      "spellrun.settings",
      JSON.stringify({ apiKey: "k", baseUrl: "", pollBaseUrl: "" })
    );
    expect(await loadSettings()).toEqual({
      ...DEFAULT_SETTINGS,
      apiKey: "k",
      baseUrl: "",
      pollBaseUrl: "",
    });
  });

  it("should refuse http:// to another computer with the reason, and accept https:// and this computer", async () => {
    for (const address of [
      "http://api.example.com",
      "http://10.0.0.5:3001",
      "http://127.example.com",
    ]) {
      const error = await saveSettings({ baseUrl: address }).catch((caught: unknown) => caught);
      expect(error).withContext(address).toEqual(jasmine.any(SettingsError));
      expect((error as SettingsError).setting).toBe("baseUrl");
      expect((error as SettingsError).message).toContain("must use https://");
      expect((error as SettingsError).message).toContain("https page");
    }
    const poll = await saveSettings({ pollBaseUrl: "http://poll.example.com" }).catch(
      (caught: unknown) => caught
    );
    expect((poll as SettingsError).setting).toBe("pollBaseUrl");
    expect((poll as SettingsError).message).toContain("The Poll base URL must use https://");
    expect(await loadSettings()).toEqual({ ...DEFAULT_SETTINGS });

    for (const [address, saved] of [
      ["https://api.example.com/v1/", "https://api.example.com/v1"],
      ["http://localhost:3001", "http://localhost:3001"],
      ["http://127.0.0.5:3001/", "http://127.0.0.5:3001"],
      ["http://[::1]:3001", "http://[::1]:3001"],
      ["http://spell.localhost", "http://spell.localhost"],
    ]) {
      expect(checkServiceAddress("baseUrl", address)).withContext(address).toBe(saved);
    }
  });

  it("should refuse an empty address, saying what to enter", () => {
    expect(() => checkServiceAddress("pollBaseUrl", "  ")).toThrow(
      jasmine.objectContaining({
        setting: "pollBaseUrl",
        message: jasmine.stringContaining("Enter the Poll base URL"),
      })
    );
  });

  it("should save a patch, keep the rest, and read it back from storage", async () => {
    const saved = await saveSettings({ apiKey: " key-1 ", baseUrl: "https://api.example.com/v1/" });
    expect(saved.apiKey).toBe("key-1");
    expect(saved.baseUrl).toBe("https://api.example.com/v1");
    expect(saved.maxInFlight).toBe(8);
    expect(await loadSettings()).toEqual(saved);
    expect(
      JSON.parse((await keyValueStorage().getItem("spellrun.settings")) as string).apiKey
    ).toBe("key-1");
  });

  it("should tell listeners after every save, until they stop listening", async () => {
    const heard: SpellSettings[] = [];
    const stop = onSettingsChanged((settings) => heard.push(settings));
    await saveSettings({ maxInFlight: 4 });
    stop();
    await saveSettings({ maxInFlight: 5 });
    expect(heard.map((settings) => settings.maxInFlight)).toEqual([4]);
  });

  it("should keep both of two quick saves", async () => {
    await Promise.all([saveSettings({ maxInFlight: 3 }), saveSettings({ rememberMs: 1000 })]);
    const settings = await loadSettings();
    expect(settings.maxInFlight).toBe(3);
    expect(settings.rememberMs).toBe(1000);
  });

  it("should refuse unusable values with a SettingsError and save nothing", async () => {
    const attempts: Partial<SpellSettings>[] = [
      { maxInFlight: 0 },
      { maxInFlight: 2.5 },
      { rememberMs: -1 },
      { baseUrl: "ftp://example.com" },
      { pollBaseUrl: "not a url" },
      { baseUrl: "https://user:pw@example.com" },
      { authHeader: "cookie" as SpellSettings["authHeader"] },
      { batchRuns: "yes" as unknown as boolean },
    ];
    for (const patch of attempts) {
      await expectAsync(saveSettings(patch)).toBeRejectedWith(jasmine.any(SettingsError));
    }
    expect(await loadSettings()).toEqual({ ...DEFAULT_SETTINGS });
  });

  it("should never repeat the key in an error", async () => {
    const error = await saveSettings({ apiKey: 42 as unknown as string }).catch(
      (caught: Error) => caught
    );
    expect((error as Error).message).toBe("The API key must be text.");
  });

  it("should fall back to defaults for damaged stored values", async () => {
    await keyValueStorage().setItem(
      "spellrun.settings",
      JSON.stringify({ apiKey: "k", maxInFlight: "lots", baseUrl: 7, unknown: 1 })
    );
    expect(await loadSettings()).toEqual({ ...DEFAULT_SETTINGS, apiKey: "k" });
    await keyValueStorage().setItem("spellrun.settings", "{not json");
    expect(await loadSettings()).toEqual({ ...DEFAULT_SETTINGS });
  });
});
