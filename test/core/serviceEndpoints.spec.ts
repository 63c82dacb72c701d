import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { ADDIN_HOST_PATHS } from "../../addin/serviceRoute.js";
import { FORWARDING_PREFIXES, SERVICE_ENDPOINTS, endpointPath } from "../../src/index.js";

const require = createRequire(import.meta.url);
const configFile = fileURLToPath(new URL("../../webpack.config.js", import.meta.url));

describe("the one table of endpoints and forwarding prefixes (src/http/serviceEndpoints.ts)", () => {
  it("should hold the service document's five endpoints, each with its method and host", () => {
    expect(
      Object.entries(SERVICE_ENDPOINTS).map(
        ([name, { method, host }]) => `${method} ${host} ${endpointPath(name as "start")}`
      )
    ).toEqual([
      "POST base /spells/start",
      "POST base /spells/bulkStart",
      "POST base /spells/cancelBulk",
      "POST base /spells/getBulkRuns",
      "GET poll /spells/getRun",
    ]);
  });

  it("should be what the add-in's route and the dev server's proxy use", async () => {
    expect(ADDIN_HOST_PATHS).toEqual({
      baseUrl: FORWARDING_PREFIXES.base,
      pollBaseUrl: FORWARDING_PREFIXES.poll,
    });
    const configure = require(configFile) as (
      env: Record<string, unknown>,
      options: { mode: string }
    ) => Promise<{ devServer: { proxy: { context: string[]; pathRewrite: object }[] } }>;
    const config = await configure({ WEBPACK_BUILD: true }, { mode: "development" });
    expect(config.devServer.proxy.map((proxy) => proxy.context)).toEqual([
      [FORWARDING_PREFIXES.base],
      [FORWARDING_PREFIXES.poll],
    ]);
    expect(config.devServer.proxy.map((proxy) => Object.keys(proxy.pathRewrite))).toEqual([
      [`^${FORWARDING_PREFIXES.base}`],
      [`^${FORWARDING_PREFIXES.poll}`],
    ]);
  });
});
