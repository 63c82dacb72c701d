import type { OrganisationConfig } from "../../addin/organisation/organisationConfig.js";
import { organisationRoute } from "../../addin/organisation/organisationRoute.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import { MissingApiKeyError } from "../../addin/MissingApiKeyError.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { resetSharedClient, sharedClientWithSettings } from "../../addin/sharedClient.js";

const CONFIG: OrganisationConfig = {
  mode: "organisation",
  tenantId: "tenant-1",
  clientId: "client-1",
  devSignIn: false,
};

describe("organisationRoute (the host's organisation mode, found whatever route is stored)", () => {
  it("should ask the host even when Settings say Directly, and call through the host in organisation mode", async () => {
    let asked = 0;
    const answer = await organisationRoute({ serviceRoute: "direct" }, () => {
      asked += 1;
      return Promise.resolve(CONFIG);
    });
    expect(asked).toBe(1);
    expect(answer).toEqual({ organisation: CONFIG, serviceRoute: "addinHost" });
  });

  it("should keep the stored route for a plain host", async () => {
    const plain = () => Promise.resolve(undefined);
    expect(await organisationRoute({ serviceRoute: "direct" }, plain)).toEqual({
      organisation: undefined,
      serviceRoute: "direct",
    });
    expect(await organisationRoute({ serviceRoute: "addinHost" }, plain)).toEqual({
      organisation: undefined,
      serviceRoute: "addinHost",
    });
  });
});

describe("the shared client on first load from an organisation's gateway, Settings saying Directly", () => {
  // A page of its own origin: organisationConfig asks once per runtime and origin.
  const origin = "https://gateway-first-load.example";
  const realFetch = globalThis.fetch;
  const realLocation = Object.getOwnPropertyDescriptor(globalThis, "location");
  let asked: string[];

  beforeEach(async () => {
    useKeyValueStorage(memoryStorage());
    await resetSharedClient();
    asked = [];
    Object.defineProperty(globalThis, "location", { value: { origin }, configurable: true });
    globalThis.fetch = ((input: string | URL | Request) => {
      const url = String(input instanceof Request ? input.url : input);
      asked.push(url);
      return Promise.resolve(
        url === `${origin}/org/config`
          ? new Response(JSON.stringify(CONFIG), {
              headers: { "content-type": "application/json" },
            })
          : new Response("{}", { status: 404 })
      );
    }) as typeof fetch;
  });

  afterEach(async () => {
    globalThis.fetch = realFetch;
    if (realLocation) Object.defineProperty(globalThis, "location", realLocation);
    else delete (globalThis as { location?: unknown }).location;
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  it("should find the organisation and call through the host, with no key of the user's", async () => {
    await saveSettings({
      serviceRoute: "direct",
      apiKey: "",
      baseUrl: "https://api.example.com",
      pollBaseUrl: "https://poll.example.com",
    });
    // Before: the stored "Directly" kept /org/config unasked, and the missing key stopped it.
    const built = await sharedClientWithSettings().then(
      () => "built",
      (error: unknown) => (error instanceof MissingApiKeyError ? "no key" : String(error))
    );
    expect(built).toBe("built");
    expect(asked).toEqual([`${origin}/org/config`]);
  });
});
